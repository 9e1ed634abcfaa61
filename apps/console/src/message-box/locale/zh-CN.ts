export default {
  'messageBox.title': '消息通知',
  'messageBox.tab.message': '消息',
  'messageBox.tab.notice': '通知',
  'messageBox.tab.todo': '待办',
  'messageBox.allRead': '全部已读',
  'messageBox.viewMore': '查看更多',
  'messageBox.empty': '暂无内容',
};
