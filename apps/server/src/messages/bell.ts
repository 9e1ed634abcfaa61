import { and, eq, inArray, ne } from 'drizzle-orm';
import { messageKinds, type DomainEvent, type EventPayloadOf, type EventTypeName } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import type { AfterCommit } from '../events/once.ts';
import { staffUsers } from '../staff/staff.sql.ts';
import { notifyDeviceEvents } from './device-event-notify.ts';
import { createNotifier } from './notify.ts';

type Handler<T extends EventTypeName> = (tx: Db, payload: EventPayloadOf<T>) => Promise<void | AfterCommit>;

/**
 * What the message box makes of each event: every notice in the console comes from here. A
 * handler runs in the transaction that records the event as handled; a mail goes out after it.
 */
export function bellHandlers(ctx: AppContext): { [T in EventTypeName]?: Handler<T> } {
  return {
    // Each staff member hears about the severities and codes they chose; bursts fold per minute.
    'device.event.raised': async (tx, e) => notifyDeviceEvents(tx, [{ sn: e.sn, code: e.code, severity: e.severity, message: e.message, lastAt: new Date(e.at) }]),
    'device.flagged': async (tx, e) =>
      void (await createNotifier(tx).foldToStaff('notice', messageKinds.deviceFlagged, { sn: e.sn, at: e.at, rate: String(Math.round(e.rate)), limit: String(e.limit) })),
    'ota.campaign.paused': async (tx, e) => {
      // Staff who paused a campaign know it; the failure threshold tells every admin.
      if (e.reason !== 'ABORT_THRESHOLD') return;
      await createNotifier(tx).toAdmins('notice', messageKinds.otaCampaignPaused, { id: String(e.campaignId), name: e.name, failed: String(e.failed ?? 0), finished: String(e.finished ?? 0) });
    },
    'ticket.created': async (tx, e) =>
      void (await createNotifier(tx).foldToStaff('todo', messageKinds.ticketNew, { number: String(e.number), title: e.title, category: e.category, user: e.userName, sn: e.sn ?? '', id: String(e.ticketId) })),
    // The assignee hears of the customer's answer, and of a reopen.
    'ticket.replied': async (tx, e) => {
      if (e.by === 'customer') await tellAssignee(tx, e);
    },
    'ticket.status_changed': async (tx, e) => {
      if (e.via === 'reopen') await tellAssignee(tx, { ...e, author: e.actor });
    },
    'staff.changed': async (tx, e) => staffNotice(ctx, tx, e),
    'webhook.disabled': async (tx, e) => {
      await createNotifier(tx).toAdmins('notice', messageKinds.webhookDisabled, { url: e.url, id: String(e.webhookId), at: e.failingSince });
      const admins = await tx
        .select({ email: staffUsers.email })
        .from(staffUsers)
        .where(and(eq(staffUsers.role, 'admin'), eq(staffUsers.status, 'active'), ne(staffUsers.email, '')));
      const link = `${ctx.config.publicUrl}/#/system/integrations`;
      // Staff have no language setting: the mail is in English.
      return async () => {
        for (const admin of admins) await ctx.mailer.send({ to: admin.email, template: 'webhook-disabled', params: { url: e.url, since: e.failingSince, link }, locale: 'en-US' });
      };
    },
  };
}

async function tellAssignee(tx: Db, e: { assigneeId: number | null; number: number; title: string; author: string; ticketId: number }) {
  if (e.assigneeId === null) return;
  await createNotifier(tx).toUser(e.assigneeId, 'message', messageKinds.ticketCustomerReply, { number: String(e.number), title: e.title, user: e.author, id: String(e.ticketId) });
}

async function staffNotice(ctx: AppContext, tx: Db, e: EventPayloadOf<'staff.changed'>): Promise<void | AfterCommit> {
  const notify = createNotifier(tx);
  switch (e.change) {
    case 'created':
      // The new admin is not told of their own account.
      return notify.toAdmins('notice', messageKinds.accountCreated, { actor: e.actor ?? '', username: e.username, role: e.role }, e.staffId);
    case 'approved':
      return notify.toAdmins('notice', messageKinds.accountApproved, { actor: e.actor ?? '', username: e.username });
    case 'password_changed':
      return notify.toUser(e.staffId, 'notice', messageKinds.passwordChanged, { ip: e.ip ?? '', at: e.at });
    case 'requested': {
      const name = e.name ?? '';
      const fresh = await notify.foldToAdmins('todo', messageKinds.accountRequest, { username: e.username, name, reason: e.reason ?? '' });
      if (fresh.length === 0) return;
      // Mail only the admins whose todo is new: the others were told of this batch already.
      const admins = await tx.select({ email: staffUsers.email }).from(staffUsers).where(and(inArray(staffUsers.id, fresh), ne(staffUsers.email, '')));
      const link = `${ctx.config.publicUrl}/#/system/system-user?status=pending`;
      return async () => {
        for (const admin of admins) {
          await ctx.mailer.send({ to: admin.email, template: 'account-request', params: { name, username: e.username, link }, locale: e.locale ?? 'en-US' });
        }
      };
    }
    default:
      return;
  }
}

/** The bell's event types: those it has a handler for. */
export function bellTypes(handlers: ReturnType<typeof bellHandlers>): EventTypeName[] {
  return Object.keys(handlers) as EventTypeName[];
}

/** Dispatches one event to its handler. */
export function ringBell(handlers: ReturnType<typeof bellHandlers>) {
  return (tx: Db, event: DomainEvent) => (handlers[event.type] as Handler<EventTypeName> | undefined)?.(tx, event.payload) ?? Promise.resolve();
}
