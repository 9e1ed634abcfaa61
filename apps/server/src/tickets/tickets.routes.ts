import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import { asc, count, desc, eq } from 'drizzle-orm';
import {
  appTicketApi,
  appTicketCreateBodySchema,
  TICKET_MAX_ATTACHMENTS,
  ticketApi,
  unstorableTextPath,
  type AppTicketCreateBody,
  type Locale,
} from '@mowerline/contract';
import { backgroundRunner } from '../auth/background.ts';
import type { AppContext } from '../context.ts';
import { appUsers } from '../end-users/end-users.sql.ts';
import { appUser } from '../end-users/app-session.ts';
import { requireLink } from '../end-users/binding.service.ts';
import { principal } from '../http/auth.ts';
import { serve } from '../http/endpoints.ts';
import { AppError } from '../http/envelope.ts';
import { staffUsers } from '../staff/staff.sql.ts';
import { trackUserAction } from '../end-users/user-log.service.ts';
import { discard, sendAttachment, stageAttachment, type StagedFile } from './attachments.ts';
import type { ReplyAddresses } from './reply-address.ts';
import { saveSlaTargets, slaTargets } from './sla.ts';
import { deviceSnapshot } from './snapshot.ts';
import { exportTickets, listTickets } from './ticket-list.ts';
import { appTicketDetail, findAttachment, getTicket, ownTicket, staffTicketDetail, toAppTicket } from './ticket-views.ts';
import { bulkUpdate, createTicket, customerReply, mergeTickets, rateTicket, reopenTicket, staffReply, updateTicket, type Actor } from './tickets.service.ts';
import { tickets, type TicketRow } from './tickets.sql.ts';

const csvName = () => `tickets-${new Date().toISOString().slice(0, 19).replace(/[-:T]/g, '')}.csv`;
const header = (request: FastifyRequest, name: string) => String(request.headers[name] ?? '').slice(0, 256);

/**
 * Feedback tickets: the app's `/api/app/v1/feedback` (own tickets only, public entries only) and
 * the staff's `/api/admin/ticket`. New tickets reach staff through the message box; an agent's
 * public reply reaches the user in the app thread and by mail with a signed reply address, and a
 * mailed answer comes back in through the inbound SMTP listener.
 */
export async function ticketRoutes(app: FastifyInstance, ctx: AppContext, replies: ReplyAddresses) {
  const background = backgroundRunner(app);
  const maxBytes = ctx.config.ticketAttachmentMaxMb * 1024 * 1024;
  const dataDir = ctx.config.dataDir;
  const staffActor = (request: FastifyRequest): Actor => {
    const p = principal(request);
    return { staffId: p.id, name: p.name || p.username };
  };

  /** The ticket's user, for mails in their language. */
  async function userOf(row: TicketRow) {
    const [u] = await ctx.db.select({ email: appUsers.email, name: appUsers.name, locale: appUsers.locale }).from(appUsers).where(eq(appUsers.id, row.userId));
    return u;
  }

  /** Mails an agent's public reply to the user, with the ticket's signed Reply-To; recorded in the email log. */
  function mailReply(row: TicketRow, agent: string, body: string) {
    background('ticket reply mail', async () => {
      const user = await userOf(row);
      if (!user) return;
      await ctx.mailer.send({
        to: user.email,
        template: 'ticket-reply',
        params: { name: user.name, number: row.number, title: row.title, agent, body },
        locale: user.locale as Locale,
        replyTo: replies.address(row.id),
      });
    });
  }

  /** JSON, or multipart: fields, then up to TICKET_MAX_ATTACHMENTS files. Nothing stays of a refusal. */
  async function readCreate(request: FastifyRequest): Promise<{ body: AppTicketCreateBody; files: StagedFile[] }> {
    if (!request.isMultipart()) return { body: parseCreateBody(request.body), files: [] };
    const fields: Record<string, string> = {};
    const files: StagedFile[] = [];
    try {
      const parts = request.parts({ limits: { fileSize: maxBytes, files: TICKET_MAX_ATTACHMENTS + 1, fields: 10, fieldSize: 16 * 1024, parts: 20 } });
      for await (const part of parts) {
        if (part.type === 'field') {
          fields[part.fieldname] = String(part.value);
          continue;
        }
        if (files.length >= TICKET_MAX_ATTACHMENTS) {
          part.file.resume();
          throw new AppError('TICKET_TOO_MANY_ATTACHMENTS', { max: TICKET_MAX_ATTACHMENTS });
        }
        files.push(await stageAttachment(dataDir, part.file, part.filename, maxBytes));
      }
      return { body: parseCreateBody(fields), files };
    } catch (err) {
      await discard(dataDir, files);
      throw err;
    }
  }

  await app.register(async (scope) => {
    // Multipart only inside this scope: the rest of the API keeps its JSON-only body parsing.
    // A file past the limit is cut (`truncated`) and refused by the service with the catalogue error.
    await scope.register(fastifyMultipart, { throwFileSizeLimit: false, limits: { fields: 10, fieldSize: 16 * 1024, files: TICKET_MAX_ATTACHMENTS + 1, parts: 20, fileSize: maxBytes } });
    serve(scope, ctx, appTicketApi, {
      create: ({ request }) =>
        trackUserAction(ctx, request, { action: 'feedback.create' }, async (note) => {
          const user = appUser(request);
          const { body, files } = await readCreate(request);
          note({ sn: body.sn ?? '', detail: { category: body.category, attachments: files.length } });
          try {
            if (body.sn) await requireLink(ctx.db, user.id, body.sn);
            const snapshot = body.sn ? await deviceSnapshot(ctx.db, body.sn) : null;
            const row = await createTicket(ctx.db, dataDir, { userId: user.id, userName: user.name || user.email, body, appVersion: header(request, 'x-app-version'), os: header(request, 'x-app-os'), snapshot, files });
            note({ detail: { ticket: row.number } });
            return appTicketDetail(ctx.db, row);
          } catch (err) {
            await discard(dataDir, files);
            throw err;
          }
        }),

      list: async ({ query, request }) => {
        const userId = appUser(request).id;
        const rows = await ctx.db
          .select()
          .from(tickets)
          .where(eq(tickets.userId, userId))
          .orderBy(desc(tickets.lastActivityAt), desc(tickets.id))
          .limit(query.pageSize)
          .offset((query.page - 1) * query.pageSize);
        const [total] = await ctx.db.select({ n: count() }).from(tickets).where(eq(tickets.userId, userId));
        return { list: rows.map((r) => toAppTicket(r)), total: total?.n ?? 0 };
      },

      detail: async ({ params, request }) => appTicketDetail(ctx.db, await ownTicket(ctx.db, appUser(request).id, params.id)),

      reply: ({ params, body, request }) =>
        trackUserAction(ctx, request, { action: 'feedback.reply', detail: { ticketId: params.id } }, async () => {
          const user = appUser(request);
          const row = await ownTicket(ctx.db, user.id, params.id);
          return appTicketDetail(ctx.db, await customerReply(ctx.db, row, user.name, body.body, 'app', user.name || user.email));
        }),

      rate: ({ params, body, request }) =>
        trackUserAction(ctx, request, { action: 'feedback.rate', detail: { ticketId: params.id, score: body.score } }, async () => {
          const user = appUser(request);
          const row = await ownTicket(ctx.db, user.id, params.id);
          return appTicketDetail(ctx.db, await rateTicket(ctx.db, row, user.name, body.score, body.comment));
        }),

      reopen: ({ params, body, request }) =>
        trackUserAction(ctx, request, { action: 'feedback.reopen', detail: { ticketId: params.id } }, async () => {
          const user = appUser(request);
          const row = await ownTicket(ctx.db, user.id, params.id);
          return appTicketDetail(ctx.db, await reopenTicket(ctx.db, row, user.name, body.reason, user.name || user.email));
        }),

      attachment: async ({ params, query, request, reply }) => {
        await ownTicket(ctx.db, appUser(request).id, params.id);
        const a = await findAttachment(ctx.db, params.id, params.attachmentId, true);
        return sendAttachment(reply, dataDir, { name: a.name, relative: query.thumbnail && a.thumbPath ? a.thumbPath : a.filePath, thumb: !!query.thumbnail && !!a.thumbPath });
      },
    });
  });

  serve(app, ctx, ticketApi, {
    list: ({ query, request }) => listTickets(ctx.db, query, principal(request).id),

    exportCsv: async ({ query, request, reply, audit }) => {
      audit({ targetType: 'ticket', detail: { filter: query } });
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${csvName()}"`)
        .send(exportTickets(ctx.db, query, principal(request).id));
    },

    assignees: async () =>
      ctx.db
        .select({ id: staffUsers.id, name: staffUsers.name, username: staffUsers.username, role: staffUsers.role })
        .from(staffUsers)
        .where(eq(staffUsers.status, 'active'))
        .orderBy(asc(staffUsers.name), asc(staffUsers.id)),

    getSla: async () => ({ targets: await slaTargets(ctx.db) }),

    updateSla: async ({ body, audit }) => {
      const before = await slaTargets(ctx.db);
      audit({ targetType: 'ticketSla', detail: { from: before, to: body.targets } });
      return { targets: await saveSlaTargets(ctx.db, body) };
    },

    bulk: async ({ body, request, audit }) => {
      audit({ targetType: 'ticket', targetId: body.ids.join(','), detail: { action: body.action, ...(body.action === 'assign' ? { assigneeId: body.assigneeId } : {}) } });
      const result = await bulkUpdate(ctx.db, staffActor(request), body);
      audit({ detail: result });
      return result;
    },

    detail: ({ params }) => staffTicketDetail(ctx.db, params.id),

    update: async ({ params, body, request, audit }) => {
      audit({ targetType: 'ticket', targetId: params.id });
      const { before, after } = await updateTicket(ctx.db, params.id, staffActor(request), body);
      audit({
        targetName: `#${before.number}`,
        detail: { from: { status: before.status, priority: before.priority, assigneeId: before.assigneeId, tags: before.tags }, to: body, now: { status: after.status } },
      });
      return staffTicketDetail(ctx.db, params.id);
    },

    reply: async ({ params, body, request, audit }) => {
      audit({ targetType: 'ticket', targetId: params.id, detail: { internal: body.internal, status: body.status ?? null, length: body.body.length } });
      const row = await getTicket(ctx.db, params.id);
      audit({ targetName: `#${row.number}` });
      const actor = staffActor(request);
      const after = await staffReply(ctx.db, row, actor, body);
      if (!body.internal) mailReply(after, actor.name, body.body);
      return staffTicketDetail(ctx.db, params.id);
    },

    merge: async ({ params, body, request, audit }) => {
      audit({ targetType: 'ticket', targetId: params.id, detail: { intoId: body.intoId } });
      const { source, target } = await mergeTickets(ctx.db, params.id, body.intoId, staffActor(request));
      audit({ targetName: `#${source.number} → #${target.number}` });
      return staffTicketDetail(ctx.db, target.id);
    },

    attachment: async ({ params, query, reply }) => {
      await getTicket(ctx.db, params.id);
      const a = await findAttachment(ctx.db, params.id, params.attachmentId, false);
      return sendAttachment(reply, dataDir, { name: a.name, relative: query.thumbnail && a.thumbPath ? a.thumbPath : a.filePath, thumb: !!query.thumbnail && !!a.thumbPath });
    },
  });

}

/** The create body from JSON or multipart fields: the validator's rules, applied here because multipart bypasses it. */
function parseCreateBody(raw: unknown): AppTicketCreateBody {
  const unstorable = unstorableTextPath(raw);
  if (unstorable !== undefined) throw new AppError('UNSTORABLE_TEXT', { field: unstorable ? `body.${unstorable}` : 'body' });
  const parsed = appTicketCreateBodySchema.safeParse(raw ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError('VALIDATION', { detail: `${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''}` });
  }
  return parsed.data;
}

