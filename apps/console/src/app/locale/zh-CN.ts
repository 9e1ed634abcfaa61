export default {
  'app.footer': 'Mowerline 割草机器人云平台 © {year}',
  'app.error.title': '页面出错了',
  'app.error.content': '页面加载或显示时出错，控制台可能刚刚更新，刷新页面后重试。',
  'app.error.reload': '刷新页面',
};
