import { z } from 'zod';
import { pageSchema } from '../envelope.ts';
import { endpoint, staff } from '../endpoint.ts';
import { messageListQuerySchema, messageReadAllBodySchema, messageReadBodySchema, messageSchema, notifyPrefsSchema, unreadCountSchema } from '../messages.ts';

const tag = 'messages';
const access = staff('messages');

/** The console's message box: every signed-in staff member sees only their own messages. */
export const messagesApi = {
  list: endpoint({ method: 'GET', path: '/api/admin/message/list', access, tag, summary: 'My messages, newest first', query: messageListQuerySchema, response: pageSchema(messageSchema) }),
  read: endpoint({ method: 'POST', path: '/api/admin/message/read', access, tag, summary: 'Mark my messages read (status 0 → 1)', body: messageReadBodySchema, response: z.literal(true) }),
  readAll: endpoint({
    method: 'POST',
    path: '/api/admin/message/read-all',
    access,
    tag,
    summary: 'Mark all my messages (of one type) read',
    body: messageReadAllBodySchema,
    response: z.literal(true),
  }),
  notifyPrefs: endpoint({
    method: 'GET',
    path: '/api/admin/message/preferences',
    access,
    tag,
    summary: 'Which device exception events (severities, codes) notify me; critical and major until I choose',
    response: notifyPrefsSchema,
  }),
  updateNotifyPrefs: endpoint({
    method: 'PUT',
    path: '/api/admin/message/preferences',
    access,
    tag,
    summary: 'Choose which device exception events notify me',
    body: notifyPrefsSchema,
    response: notifyPrefsSchema,
    audit: 'auth.notifications.update',
  }),
  unreadCount: endpoint({ method: 'GET', path: '/api/admin/message/unread-count', access, tag, summary: 'My unread messages per type', response: unreadCountSchema }),
};
