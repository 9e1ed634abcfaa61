// Menu labels of the route table (contract appRoutes meta.locale); areas added later bring their own.
export default {
  'menu.dashboard': 'Dashboard',
  'menu.dashboard.workplace': 'Workplace',
  'menu.device': 'Devices',
  'menu.device.list': 'Device list',
  'menu.device.map': 'Device map',
  'menu.device.exceptionEvent': 'Exception events',
  'menu.product': 'Products',
  'menu.product.sn': 'Serial numbers',
  'menu.system': 'System',
  'menu.system.user': 'Staff accounts',
  'menu.system.log': 'System log',
  'menu.system.emailLog': 'E-mail log',
  'menu.user': 'Personal',
  'menu.user.center': 'User center',
  'menu.user.messages': 'Messages',
  'router.accessRefused': 'Your role cannot open “{page}”, so the console opened “{target}” instead.',
};
