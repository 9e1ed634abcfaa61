export default {
  'messageBox.title': 'Messages',
  'messageBox.tab.message': 'Messages',
  'messageBox.tab.notice': 'Notices',
  'messageBox.tab.todo': 'To-dos',
  'messageBox.allRead': 'All read',
  'messageBox.viewMore': 'View more',
  'messageBox.empty': 'Nothing here',
};
