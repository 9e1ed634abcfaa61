// Menu labels of the route table (contract appRoutes meta.locale); areas added later bring their own.
export default {
  'menu.dashboard': '仪表盘',
  'menu.dashboard.workplace': '工作台',
  'menu.device': '设备管理',
  'menu.device.list': '设备列表',
  'menu.device.map': '设备地图',
  'menu.device.exceptionEvent': '异常事件',
  'menu.product': '产品管理',
  'menu.product.sn': '产品序列号',
  'menu.system': '系统管理',
  'menu.system.user': '员工账号',
  'menu.system.log': '系统日志',
  'menu.system.emailLog': '邮件日志',
  'menu.user': '个人中心',
  'menu.user.center': '用户中心',
  'menu.user.messages': '消息中心',
  'router.accessRefused': '您的角色无权打开“{page}”，已为您打开“{target}”。',
};
