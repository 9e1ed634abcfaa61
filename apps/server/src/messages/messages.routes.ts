import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  envelopeSchema,
  messageListQuerySchema,
  messageReadAllBodySchema,
  messageReadBodySchema,
  messageSchema,
  pageSchema,
  unreadCountSchema,
} from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { principal } from '../http/auth.ts';
import { localeOf, ok } from '../http/envelope.ts';
import { listMessages, markAllRead, markRead, unreadCount } from './messages.service.ts';

/** The console's message box: every signed-in staff member sees only their own messages. */
export async function messagesRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const common = { tags: ['messages'], security: [{ bearer: [] }] };
  const preHandler = ctx.guard('messages');

  r.get(
    '/api/admin/message/list',
    { preHandler, schema: { ...common, summary: 'My messages, newest first', querystring: messageListQuerySchema, response: { 200: envelopeSchema(pageSchema(messageSchema)) } } },
    async (request) => ok(request, await listMessages(ctx.db, principal(request).id, request.query, localeOf(request))),
  );

  r.post(
    '/api/admin/message/read',
    { preHandler, schema: { ...common, summary: 'Mark my messages read (status 0 → 1)', body: messageReadBodySchema, response: { 200: envelopeSchema(z.literal(true)) } } },
    async (request) => {
      await markRead(ctx.db, principal(request).id, request.body.ids);
      return ok(request, true as const);
    },
  );

  r.post(
    '/api/admin/message/read-all',
    { preHandler, schema: { ...common, summary: 'Mark all my messages (of one type) read', body: messageReadAllBodySchema, response: { 200: envelopeSchema(z.literal(true)) } } },
    async (request) => {
      await markAllRead(ctx.db, principal(request).id, request.body.type);
      return ok(request, true as const);
    },
  );

  r.get(
    '/api/admin/message/unread-count',
    { preHandler, schema: { ...common, summary: 'My unread messages per type', response: { 200: envelopeSchema(unreadCountSchema) } } },
    async (request) => ok(request, await unreadCount(ctx.db, principal(request).id)),
  );
}
