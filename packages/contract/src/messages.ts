import { z } from 'zod';
import { eventCodeSchema, eventSeverities } from './device-protocol.ts';
import { pageQuerySchema } from './envelope.ts';
import { timeZoneSchema } from './time-zone.ts';

export const messageTypes = ['message', 'notice', 'todo'] as const;
export type MessageType = (typeof messageTypes)[number];

/** Spec §3 message item; status 0 unread, 1 read. */
export const messageSchema = z.object({
  id: z.number().int(),
  type: z.enum(messageTypes),
  title: z.string(),
  subTitle: z.string(),
  avatar: z.string(),
  content: z.string(),
  time: z.string(),
  messageType: z.number().int(),
  status: z.union([z.literal(0), z.literal(1)]),
});
export type Message = z.infer<typeof messageSchema>;

/** GET /api/admin/message/list */
export const messageListQuerySchema = pageQuerySchema
  .extend({
    type: z.enum(messageTypes).optional(),
    status: z.coerce.number().pipe(z.union([z.literal(0), z.literal(1)])).optional(),
    /** The reader's IANA time zone: times inside the texts are written in it (UTC without it). */
    timeZone: timeZoneSchema.optional(),
  })
  .strict();
export type MessageListQuery = z.infer<typeof messageListQuerySchema>;

/** POST /api/admin/message/read */
export const messageReadBodySchema = z.object({ ids: z.array(z.number().int().min(1)).min(1).max(500) }).strict();
/** POST /api/admin/message/read-all */
export const messageReadAllBodySchema = z.object({ type: z.enum(messageTypes).optional() }).strict();
/** GET /api/admin/message/unread-count */
export const unreadCountSchema = z.object({ message: z.number().int(), notice: z.number().int(), todo: z.number().int() });
export type UnreadCount = z.infer<typeof unreadCountSchema>;

/** Kinds of server-made messages (messageType); titles/contents are stored in both languages. */
export const messageKinds = {
  accountCreated: 1,
  passwordChanged: 2,
  accountRequest: 3,
  accountApproved: 4,
  deviceCriticalEvent: 5,
  otaCampaignPaused: 6,
  ticketNew: 7,
  ticketCustomerReply: 8,
  /** Device exception events a staff member chose to hear about, folded per severity and minute. */
  deviceEvents: 9,
  /** A device stayed far above its ingest limits: disconnected and flagged (`device.flagged`). */
  deviceFlagged: 10,
  /** A webhook failed for days in a row and was switched off. */
  webhookDisabled: 28,
} as const;

/**
 * GET/PUT /api/admin/message/preferences: which device exception events notify me. `codes` empty
 * means every code of the chosen severities. Without a saved choice: critical and major.
 */
export const notifyPrefsSchema = z
  .object({
    severities: z.array(z.enum(eventSeverities)).max(eventSeverities.length).refine((s) => new Set(s).size === s.length, 'each severity once'),
    codes: z.array(eventCodeSchema).max(50),
  })
  .strict();
export type NotifyPrefs = z.infer<typeof notifyPrefsSchema>;
export const defaultNotifyPrefs: NotifyPrefs = { severities: ['critical', 'major'], codes: [] };
