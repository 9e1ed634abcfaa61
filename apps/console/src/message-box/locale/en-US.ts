export default {
  'messageBox.title': 'Messages',
  'messageBox.tab.message': 'Message',
  'messageBox.tab.notice': 'Notice',
  'messageBox.tab.todo': 'Todo',
  'messageBox.allRead': 'All read',
  'messageBox.viewMore': 'View more',
  'messageBox.empty': 'Nothing here',
};
