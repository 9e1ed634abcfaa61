export default {
  'messagesPage.filter.all': '全部',
  'messagesPage.filter.unread': '未读',
  'messagesPage.allRead': '全部已读',
  'messagesPage.allRead.done': '已全部标记为已读',
  'messagesPage.markRead': '标为已读',
  'messagesPage.read': '已读',
  'messagesPage.unread': '未读',
  'messagesPage.review': '去审批',
  'messagesPage.empty': '暂无消息',
  'messagesPage.emptyUnread': '没有未读消息',
};
