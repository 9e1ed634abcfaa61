// Strings shared by the whole console; each feature has its own locale folder.
export default {
  'app.name': 'Mowerline 运营后台',
  'request.error': '请求错误',
  'request.networkError': '网络错误',
  'request.aborted': '请求已取消',
  'request.timeout': '请求超时（{ms} 毫秒）',
  'common.ok': '确定',
  'common.cancel': '取消',
  'common.loading': '加载中…',
  'common.empty': '暂无数据',
  'common.expandRow': '展开详情',
  'common.collapseRow': '收起详情',
  'common.selectRow': '选择 {name}',
};
