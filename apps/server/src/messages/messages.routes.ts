import type { FastifyInstance } from 'fastify';
import { messagesApi } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { principal } from '../http/auth.ts';
import { serve } from '../http/endpoints.ts';
import { localeOf } from '../http/envelope.ts';
import { getNotifyPrefs, saveNotifyPrefs } from './device-event-notify.ts';
import { listMessages, markAllRead, markRead, unreadCount } from './messages.service.ts';

/** The console's message box: every signed-in staff member sees only their own messages. */
export async function messagesRoutes(app: FastifyInstance, ctx: AppContext) {
  serve(app, ctx, messagesApi, {
    list: ({ request, query }) => listMessages(ctx.db, principal(request).id, query, localeOf(request)),
    read: async ({ request, body }) => {
      await markRead(ctx.db, principal(request).id, body.ids);
      return true as const;
    },
    readAll: async ({ request, body }) => {
      await markAllRead(ctx.db, principal(request).id, body.type);
      return true as const;
    },
    unreadCount: ({ request }) => unreadCount(ctx.db, principal(request).id),
    notifyPrefs: ({ request }) => getNotifyPrefs(ctx.db, principal(request).id),
    updateNotifyPrefs: async ({ request, body, audit }) => {
      const me = principal(request);
      audit({ targetType: 'staff', targetId: me.id, targetName: me.username });
      const before = await getNotifyPrefs(ctx.db, me.id);
      const after = await saveNotifyPrefs(ctx.db, me.id, body);
      audit({ detail: { before, after } });
      return after;
    },
  });
}
