export default {
  'notFound.subTitle': '抱歉，页面不见了～',
  'notFound.back': '返回首页',
};
