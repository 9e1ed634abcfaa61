import { z } from 'zod';
import { deviceStates, eventCodeSchema, eventSeverities } from './device-protocol.ts';
import { campaignStatuses } from './firmware.ts';
import { locales } from './locale.ts';
import { roles } from './roles.ts';
import { runResults, runIdSchema } from './task-protocol.ts';
import { ticketEntryChannels, ticketStatuses } from './tickets.ts';
import { storedText } from './stored-text.ts';

/**
 * The domain event catalogue: what happened on the platform, as subscribers (the bell, the
 * workplace's live counts, later webhooks and alert rules) receive it. An event is written in the
 * same transaction as the change that caused it; telemetry itself is never an event (far too
 * frequent), only its consequences are (presence and state changes).
 *
 * A type's payload only grows compatibly (new optional fields); a breaking change is a new version.
 */

/** Bounded text that PostgreSQL can store: events are data subscribers forward elsewhere. */
const text = (max: number) => storedText(max);
const sn = text(32);
const at = z.iso.datetime({ offset: true });
const id = z.number().int().nonnegative();

/** A type's version, what its subject is, what it means, and its payload. */
export interface EventType<S extends z.ZodType = z.ZodType> {
  version: number;
  /** What the subject of this type is: the order of delivery is kept per subject (`eventSubject`). */
  subject: keyof typeof eventSubject;
  description: string;
  payload: S;
}

/**
 * The subject string of each kind: a device's events are ordered by its SN, the others by the
 * record they are about. A failed sign-in's subject is the username tried (it may not exist).
 */
export const eventSubject = {
  device: (sn: string) => sn,
  campaign: (id: number) => `campaign:${id}`,
  ticket: (id: number) => `ticket:${id}`,
  endUser: (id: number) => `end-user:${id}`,
  staff: (id: number) => `staff:${id}`,
  signIn: (username: string) => `sign-in:${username.toLowerCase()}`,
  webhook: (id: number) => `webhook:${id}`,
} as const;

const type = <S extends z.ZodType>(subject: EventType['subject'], description: string, payload: S, version = 1): EventType<S> => ({ version, subject, description, payload });
const obj = <T extends z.ZodRawShape>(shape: T) => z.object(shape).strict();

export const eventTypes = {
  'device.connected': type('device', 'A mower came online (MQTT connection or telemetry after silence).', obj({ sn, at })),
  'device.disconnected': type('device', 'A mower went offline: its will, a stale sweep or a restart of the embedded broker.', obj({ sn, at })),
  'device.state_changed': type('device', 'The reported state of a mower changed (mowing → charging…).', obj({ sn, from: z.enum(deviceStates).nullable(), to: z.enum(deviceStates), at })),
  'device.event.raised': type(
    'device',
    'A mower reported a fault or exception that was not already open.',
    obj({ sn, eventId: id, code: eventCodeSchema, severity: z.enum(eventSeverities), message: text(512), at }),
  ),
  'device.registered': type('device', 'An SN was registered (one by one or by import).', obj({ sn, modelId: id })),
  'device.event.acknowledged': type('device', 'Staff acknowledged an open device event.', obj({ sn, eventId: id, code: eventCodeSchema, by: text(64) })),
  'device.event.cleared': type('device', 'Staff cleared a device event.', obj({ sn, eventId: id, code: eventCodeSchema, by: text(64) })),
  'ota.campaign.created': type('campaign', 'An OTA campaign was created and starts rolling out.', obj({ campaignId: id, name: text(128) })),
  'ota.campaign.paused': type(
    'campaign',
    'An OTA campaign paused, by staff or by its failure threshold (then with the failed and finished jobs that tripped it).',
    obj({ campaignId: id, name: text(128), reason: text(64), failed: id.optional(), finished: id.optional() }),
  ),
  'ota.campaign.resumed': type('campaign', 'A paused OTA campaign resumed.', obj({ campaignId: id, name: text(128) })),
  'ota.campaign.completed': type('campaign', 'An OTA campaign reached an end state.', obj({ campaignId: id, name: text(128), status: z.enum(campaignStatuses) })),
  'ota.job.failed': type(
    'device',
    'An update of one mower failed for good (no retries left) or was rolled back by the mower.',
    obj({ sn, jobId: id, campaignId: id.nullable(), version: text(64), reason: text(256), at }),
  ),
  'device.bound': type('device', 'An app user bound a mower to their account.', obj({ sn, userId: id, at })),
  'device.unbound': type('device', 'A mower left its owner: unbound by the owner, by staff, or with an erased account.', obj({ sn, userId: id, at })),
  'device.flagged': type('device', 'A mower stayed far above its ingest limits and was disconnected; staff clear the flag.', obj({ sn, rate: z.number().nonnegative(), limit: z.number().nonnegative(), at })),
  'task.run.started': type('device', 'A mowing run started (or was first reported).', obj({ sn, runId: runIdSchema, at })),
  'task.run.ended': type(
    'device',
    'A mowing run ended: completed, ended by the user, interrupted or failed.',
    obj({ sn, runId: runIdSchema, result: z.enum(runResults), faultCode: eventCodeSchema.nullable(), areaM2: z.number().nonnegative(), durationS: z.number().nonnegative(), at }),
  ),
  'ticket.created': type(
    'ticket',
    'An app user filed a feedback ticket.',
    obj({ ticketId: id, number: id, title: text(200), category: text(64), sn: sn.nullable(), userName: text(128), at }),
  ),
  'ticket.replied': type(
    'ticket',
    'A public answer or an internal note was added: by the customer (app or mail) or by staff.',
    obj({ ticketId: id, number: id, title: text(200), by: z.enum(['customer', 'staff']), channel: z.enum(ticketEntryChannels), internal: z.boolean(), author: text(128), assigneeId: id.nullable(), at }),
  ),
  'ticket.status_changed': type(
    'ticket',
    'A ticket moved between statuses: by staff, by the customer (a reply or a reopen), by a merge, or closed after its reopen window.',
    obj({
      ticketId: id,
      number: id,
      title: text(200),
      from: z.enum(ticketStatuses),
      to: z.enum(ticketStatuses),
      via: z.enum(['update', 'reply', 'reopen', 'merge', 'expiry']),
      actor: text(128),
      assigneeId: id.nullable(),
      at,
    }),
  ),
  'ticket.sla_breached': type(
    'ticket',
    'A ticket passed its first-response or resolution due time without it.',
    obj({ ticketId: id, number: id, title: text(200), clock: z.enum(['first_response', 'resolution']), dueAt: at, assigneeId: id.nullable() }),
  ),
  'end_user.registered': type('endUser', 'A mobile-app account was created (after its e-mail address was confirmed).', obj({ userId: id, at })),
  'end_user.deleted': type('endUser', 'A mobile-app account was erased (by its owner after the grace period, or by staff).', obj({ userId: id, at })),
  'staff.changed': type(
    'staff',
    'A staff account was requested, created, approved, changed, disabled or deleted, or its password was changed.',
    obj({
      staffId: id,
      username: text(64),
      change: z.enum(['requested', 'created', 'approved', 'updated', 'disabled', 'deleted', 'password_changed']),
      role: z.enum(roles),
      actor: text(64).nullable(),
      /** A requested account: the name, the reason and the language of the applicant. */
      name: text(64).optional(),
      reason: text(500).optional(),
      locale: z.enum(locales).optional(),
      /** A changed password: where the change came from (its owner hears of it). */
      ip: text(64).optional(),
      at,
    }),
  ),
  'webhook.disabled': type(
    'webhook',
    'A webhook endpoint kept failing for three days and was switched off; admins switch it on again.',
    obj({ webhookId: id, url: text(2048), failingSince: at, at }),
  ),
  'security.sign_in_failed': type('signIn', 'A staff sign-in was refused (wrong password or code, locked, captcha, pending or disabled account).', obj({ username: text(64), ip: text(64), reason: text(32), at })),
  'security.locked_out': type('signIn', 'Wrong passwords from one source locked a staff username out of signing in.', obj({ username: text(64), ip: text(64), minutes: z.number().int().positive(), at })),
} as const satisfies Record<string, EventType>;

export type EventTypeName = keyof typeof eventTypes;
export const eventTypeNames = Object.keys(eventTypes) as EventTypeName[];
export type EventPayloadOf<T extends EventTypeName> = z.infer<(typeof eventTypes)[T]['payload']>;

/** An event as subscribers receive it: `id` is unique and the same on every redelivery. */
export interface DomainEvent<T extends EventTypeName = EventTypeName> {
  id: string;
  type: T;
  version: number;
  subject: string;
  payload: EventPayloadOf<T>;
  createdAt: string;
}

/** Per subscriber: how far behind it is and what keeps failing (the admin's "Event delivery" view). */
export const eventSubscriberStatusSchema = z.object({
  name: z.string(),
  types: z.array(z.string()),
  pending: z.number().int(),
  failing: z.number().int(),
  oldestPendingAt: z.string().nullable(),
  lagSeconds: z.number(),
  lastError: z.string().nullable(),
  lastErrorAt: z.string().nullable(),
  delivered: z.number().int(),
});
export type EventSubscriberStatus = z.infer<typeof eventSubscriberStatusSchema>;
