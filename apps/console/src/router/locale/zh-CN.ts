// Menu labels of the route table (contract appRoutes meta.locale); areas added later bring their own.
export default {
  'menu.dashboard': '仪表盘',
  'menu.dashboard.workplace': '工作台',
  'menu.system': '系统管理',
  'menu.system.user': '员工账号',
  'menu.system.log': '系统日志',
  'menu.system.emailLog': '邮件日志',
  'menu.user': '个人中心',
  'menu.user.center': '用户中心',
  'menu.user.messages': '消息中心',
};
