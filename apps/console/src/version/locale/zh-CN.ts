export default {
  'version.title': '检测到新版本',
  'version.content': '控制台已发布新版本，是否刷新页面以加载最新版本？',
  'version.reload': '刷新',
  'version.later': '稍后',
};
