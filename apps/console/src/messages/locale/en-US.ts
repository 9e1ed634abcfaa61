export default {
  'messagesPage.filter.all': 'All',
  'messagesPage.filter.unread': 'Unread',
  'messagesPage.allRead': 'Mark all read',
  'messagesPage.allRead.done': 'All marked read',
  'messagesPage.markRead': 'Mark read',
  'messagesPage.read': 'Read',
  'messagesPage.unread': 'Unread',
  'messagesPage.review': 'Review requests',
  'messagesPage.empty': 'No messages here',
  'messagesPage.emptyUnread': 'You are all caught up',
};
