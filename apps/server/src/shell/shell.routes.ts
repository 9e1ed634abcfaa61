import type { FastifyInstance } from 'fastify';
import { shellApi } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { serve } from '../http/endpoints.ts';
import { AppError } from '../http/envelope.ts';
import { ShellRelay } from './relay.ts';
import { closeSession, getSessionRow, listSessions, NODE_LOST_MS, recordingPage, toShellSession } from './shell.service.ts';
import { shellControlTopic } from './shell-topics.ts';

/** Remote shell: the browser's socket, session history, playback and termination (admin only). */
export async function shellRoutes(app: FastifyInstance, ctx: AppContext) {
  const relay = new ShellRelay(app, ctx);
  app.addHook('preClose', async () => relay.shutdown());

  serve(app, ctx, shellApi, {
    // Authenticated by the first message (the role check happens there, on the server).
    socket: (socket, request) => relay.accept(socket, request),

    sessions: ({ query }) => listSessions(ctx.db, query),

    recording: async ({ params, query }) => {
      const session = toShellSession(await getSessionRow(ctx.db, params.id));
      const page = await recordingPage(ctx.db, params.id, query.after, query.limit);
      return { session, ...page };
    },

    close: async ({ params, audit }) => {
      audit({ targetType: 'device', detail: { sessionId: params.id } });
      const row = await getSessionRow(ctx.db, params.id);
      audit({ targetId: row.sn, targetName: row.sn });
      if (row.status !== 'open') throw new AppError('SHELL_SESSION_CLOSED');
      if (!(await relay.terminateLocal(row.id))) {
        if (Date.now() - row.heartbeatAt.getTime() > NODE_LOST_MS) {
          await closeSession(ctx.db, row.id, { reason: 'node_lost', bytesIn: row.bytesIn, bytesOut: row.bytesOut, recordedBytes: row.recordedBytes, recordTruncated: row.recordTruncated });
        } else {
          await ctx.gateway.publish(shellControlTopic(row.id), { reason: 'terminated' });
        }
      }
      audit({ detail: { reason: 'terminated' } });
      return null;
    },

    stats: async () => relay.stats(),
  });
}
