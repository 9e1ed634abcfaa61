import { z } from 'zod';
import { pageSchema } from '../envelope.ts';
import { endpoint, staff } from '../endpoint.ts';
import { messageListQuerySchema, messageReadAllBodySchema, messageReadBodySchema, messageSchema, unreadCountSchema } from '../messages.ts';

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
  unreadCount: endpoint({ method: 'GET', path: '/api/admin/message/unread-count', access, tag, summary: 'My unread messages per type', response: unreadCountSchema }),
};
