import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  envelopeSchema,
  pageSchema,
  SHELL_WS_PATH,
  shellRecordingQuerySchema,
  shellRecordingSchema,
  shellSessionParamsSchema,
  shellSessionQuerySchema,
  shellSessionSchema,
  shellStatsSchema,
} from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { AppError, ok } from '../http/envelope.ts';
import { ShellRelay } from './relay.ts';
import { closeSession, getSessionRow, listSessions, NODE_LOST_MS, pruneRecordings, recordingPage, toShellSession } from './shell.service.ts';
import { shellControlTopic } from './shell-topics.ts';

const secured = { tags: ['shell'], security: [{ bearer: [] }] };

/** Remote shell: the browser's socket, session history, playback and termination (admin only). */
export async function shellRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const relay = new ShellRelay(app, ctx);
  app.addHook('preClose', async () => relay.shutdown());
  const retention = setInterval(() => {
    pruneRecordings(ctx.db, ctx.config.shellRecordRetentionDays).catch((err: unknown) => app.log.warn({ err }, 'shell recording retention failed'));
  }, 3_600_000);
  retention.unref();
  app.addHook('onClose', async () => clearInterval(retention));

  // Authenticated by the first message (the role check happens there, on the server).
  r.get(SHELL_WS_PATH, { websocket: true, schema: { hide: true } }, (socket, request) => relay.accept(socket, request));

  r.get(
    '/api/admin/device/shell/session',
    {
      preHandler: ctx.guard('shell'),
      schema: { ...secured, summary: 'Shell session history: who, device, start, end, bytes, close reason', querystring: shellSessionQuerySchema, response: { 200: envelopeSchema(pageSchema(shellSessionSchema)) } },
    },
    async (request) => ok(request, await listSessions(ctx.db, request.query)),
  );

  r.get(
    '/api/admin/device/shell/session/:id/recording',
    {
      preHandler: ctx.guard('shell'),
      schema: { ...secured, summary: 'A page of a session recording (frames with their time since the start)', params: shellSessionParamsSchema, querystring: shellRecordingQuerySchema, response: { 200: envelopeSchema(shellRecordingSchema) } },
    },
    async (request) => {
      const session = toShellSession(await getSessionRow(ctx.db, request.params.id));
      const page = await recordingPage(ctx.db, request.params.id, request.query.after, request.query.limit);
      return ok(request, { session, ...page });
    },
  );

  r.post(
    '/api/admin/device/shell/session/:id/close',
    {
      preHandler: ctx.guard('shell'),
      schema: { ...secured, summary: 'Terminates an open session, whichever node carries it', params: shellSessionParamsSchema, response: { 200: envelopeSchema(z.null()) } },
    },
    async (request) => {
      const row = await getSessionRow(ctx.db, request.params.id);
      if (row.status !== 'open') throw new AppError('SHELL_SESSION_CLOSED');
      if (!(await relay.terminateLocal(row.id))) {
        if (Date.now() - row.heartbeatAt.getTime() > NODE_LOST_MS) {
          await closeSession(ctx.db, row.id, { reason: 'node_lost', bytesIn: row.bytesIn, bytesOut: row.bytesOut, recordedBytes: row.recordedBytes, recordTruncated: row.recordTruncated });
        } else {
          await ctx.gateway.publish(shellControlTopic(row.id), { reason: 'terminated' });
        }
      }
      await ctx.audit(request, { action: 'device.shell.close', result: 'success', targetType: 'device', targetId: row.sn, targetName: row.sn, detail: { sessionId: row.id, reason: 'terminated' } });
      return ok(request, null);
    },
  );

  r.get(
    '/api/admin/device/shell/stats',
    { preHandler: ctx.guard('shell'), schema: { ...secured, summary: "This node's shell relay: sessions and output bytes in flight", response: { 200: envelopeSchema(shellStatsSchema) } } },
    async (request) => ok(request, relay.stats()),
  );
}
