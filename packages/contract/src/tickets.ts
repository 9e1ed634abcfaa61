import { z } from 'zod';
import { eventSeverities, snSchema } from './device-protocol.ts';
import { idParam, idSchema, isoTimeQuery, pageQuerySchema, queryBoolean } from './envelope.ts';
import { runResults } from './task-protocol.ts';
import { runStatuses } from './tasks.ts';

/**
 * Feedback tickets: filed by app users from the mobile app (`/api/app/v1/feedback`), handled by
 * staff in the console (`/ticket/list`, `/ticket/detail?id=…`). Modelled on Zammad, FreeScout and
 * Chatwoot (states, internal notes, SLA timers, CSAT, merge), plus a snapshot of the mower's context.
 */

/** `true`/`false` in a query string. */

export const ticketCategories = ['device', 'app', 'account', 'suggestion', 'other'] as const;
export type TicketCategory = (typeof ticketCategories)[number];

/**
 * The workflow: new → open → pending_customer → resolved → closed, with reopen. A merged ticket is
 * `closed` with `mergedIntoId`; spam is its own terminal status (hidden from the app as `closed`).
 */
export const ticketStatuses = ['new', 'open', 'pending_customer', 'resolved', 'closed', 'spam'] as const;
export type TicketStatus = (typeof ticketStatuses)[number];
/** What the app shows: spam reads as closed. */
export const appTicketStatuses = ['new', 'open', 'pending_customer', 'resolved', 'closed'] as const;
export type AppTicketStatus = (typeof appTicketStatuses)[number];

export const ticketPriorities = ['low', 'normal', 'high', 'urgent'] as const;
export type TicketPriority = (typeof ticketPriorities)[number];

export const ticketEntryKinds = ['customer', 'agent', 'system'] as const;
export type TicketEntryKind = (typeof ticketEntryKinds)[number];
/** Where an entry came from: the app, the console, a mail reply, or the platform itself. */
export const ticketEntryChannels = ['app', 'console', 'mail', 'system'] as const;
export type TicketEntryChannel = (typeof ticketEntryChannels)[number];

// ---------------------------------------------------------------- limits

/** A resolved (or closed) ticket can be reopened by its user, and answered, this long after it was resolved. */
export const TICKET_REOPEN_DAYS = 14;
/** Attachments per ticket creation. */
export const TICKET_MAX_ATTACHMENTS = 6;
/** Default largest attachment (`TICKET_ATTACHMENT_MAX_MB`). */
export const DEFAULT_TICKET_ATTACHMENT_MAX_MB = 10;
/** What an attachment may be, sniffed from its bytes: screenshots and log files. */
export const ticketAttachmentTypes = ['image/jpeg', 'image/png', 'image/webp', 'text/plain', 'application/zip', 'application/gzip'] as const;
export type TicketAttachmentType = (typeof ticketAttachmentTypes)[number];
/** Tags per ticket, and one tag's shape. */
export const TICKET_MAX_TAGS = 10;
export const ticketTagSchema = z.string().trim().min(1).max(32);

const titleSchema = z.string().trim().min(1).max(200);
const textSchema = z.string().trim().min(1).max(10_000);

// ---------------------------------------------------------------- shared pieces

export const ticketAttachmentSchema = z.object({
  id: z.number().int(),
  /** The uploaded file name, as text (never used as a path). */
  name: z.string(),
  /** The sniffed type (`image/png`, `text/plain` …), never the one the client claimed. */
  mime: z.enum(ticketAttachmentTypes),
  size: z.number().int(),
  /** Images have a thumbnail (`?thumbnail=true` on the download). */
  thumbnail: z.boolean(),
});
export type TicketAttachment = z.infer<typeof ticketAttachmentSchema>;

export const ticketRatingSchema = z.object({ score: z.number().int().min(1).max(5), comment: z.string(), at: z.string() });
export type TicketRating = z.infer<typeof ticketRatingSchema>;

export const ticketPersonSchema = z.object({ id: z.number().int(), name: z.string() });

/** A snapshot of the mower taken when the ticket was filed (the detail links to the live device too). */
export const ticketDeviceSnapshotSchema = z.object({
  sn: z.string(),
  modelCode: z.string(),
  modelName: z.string(),
  firmware: z.string(),
  online: z.boolean(),
  battery: z.number().int().nullable(),
  state: z.string(),
  lastSeenAt: z.string().nullable(),
  takenAt: z.string(),
  /** Exception events active or seen in the 24 h before filing. */
  events: z.array(
    z.object({
      id: z.number().int(),
      code: z.string(),
      severity: z.enum(eventSeverities),
      status: z.string(),
      message: z.string(),
      occurrences: z.number().int(),
      firstAt: z.string(),
      lastAt: z.string(),
    }),
  ),
  /** Task runs started in the 24 h before filing. */
  runs: z.array(
    z.object({
      id: z.number().int(),
      runId: z.string(),
      status: z.enum(runStatuses),
      result: z.enum(runResults).nullable(),
      faultCode: z.string().nullable(),
      progressPercent: z.number(),
      areaM2: z.number(),
      startedAt: z.string(),
      endedAt: z.string().nullable(),
    }),
  ),
});
export type TicketDeviceSnapshot = z.infer<typeof ticketDeviceSnapshotSchema>;

// ---------------------------------------------------------------- app

/** Headers the app sends with a new ticket; stored with it (truncated, as text). */
export const appClientHeadersSchema = z.object({
  'x-app-version': z.string().max(256).optional(),
  'x-app-os': z.string().max(256).optional(),
});

/**
 * POST /api/app/v1/feedback: JSON, or multipart/form-data with these fields first and then up to
 * `TICKET_MAX_ATTACHMENTS` file parts (any field name).
 */
export const appTicketCreateBodySchema = z
  .object({
    category: z.enum(ticketCategories),
    title: titleSchema,
    description: textSchema,
    /** One of the user's own (or shared) mowers. */
    sn: snSchema.optional(),
  })
  .strict();
export type AppTicketCreateBody = z.infer<typeof appTicketCreateBodySchema>;

export const appTicketSchema = z.object({
  id: z.number().int(),
  number: z.number().int(),
  category: z.enum(ticketCategories),
  title: z.string(),
  sn: z.string().nullable(),
  status: z.enum(appTicketStatuses),
  /** The ticket this one was merged into (the thread continues there). */
  mergedIntoId: z.number().int().nullable(),
  rating: ticketRatingSchema.nullable(),
  /** Rating is possible (resolved or closed after resolution, not merged). */
  canRate: z.boolean(),
  /** Reopening (or replying to reopen) is possible: resolved within `TICKET_REOPEN_DAYS`. */
  canReopen: z.boolean(),
  createdAt: z.string(),
  lastActivityAt: z.string(),
});
export type AppTicket = z.infer<typeof appTicketSchema>;

/** A public entry of the thread as the app sees it (internal notes never leave the server). */
export const appTicketEntrySchema = z.object({
  id: z.number().int(),
  kind: z.enum(ticketEntryKinds),
  /** The agent's name on an agent entry; '' otherwise. */
  authorName: z.string(),
  body: z.string(),
  attachments: z.array(ticketAttachmentSchema),
  createdAt: z.string(),
});
export type AppTicketEntry = z.infer<typeof appTicketEntrySchema>;

export const appTicketDetailSchema = appTicketSchema.extend({
  description: z.string(),
  appVersion: z.string(),
  os: z.string(),
  attachments: z.array(ticketAttachmentSchema),
  entries: z.array(appTicketEntrySchema),
});
export type AppTicketDetail = z.infer<typeof appTicketDetailSchema>;

/** GET /api/app/v1/feedback: newest activity first. */
export const appTicketListQuerySchema = pageQuerySchema.strict();
export const appTicketPageSchema = z.object({ list: z.array(appTicketSchema), total: z.number().int().min(0) });
export const appTicketParamsSchema = z.object({ id: idParam }).strict();
export const appTicketAttachmentParamsSchema = z.object({ id: idParam, attachmentId: idParam }).strict();
export const ticketAttachmentQuerySchema = z.object({ thumbnail: queryBoolean.optional() }).strict();

/** POST /api/app/v1/feedback/:id/reply: a reply to a resolved ticket within the window reopens it. */
export const appTicketReplyBodySchema = z.object({ body: textSchema }).strict();
/** POST /api/app/v1/feedback/:id/rating */
export const appTicketRatingBodySchema = z.object({ score: z.number().int().min(1).max(5), comment: z.string().trim().max(2000).default('') }).strict();
/** POST /api/app/v1/feedback/:id/reopen */
export const appTicketReopenBodySchema = z.object({ reason: z.string().trim().max(2000).default('') }).strict();

// ---------------------------------------------------------------- staff: list

export const ticketViews = ['active', 'mine', 'unassigned', 'breaching'] as const;
export type TicketView = (typeof ticketViews)[number];
export const ticketSorts = ['-lastActivityAt', '-createdAt', 'slaDue'] as const;
export type TicketSort = (typeof ticketSorts)[number];

export const ticketSummarySchema = z.object({
  id: z.number().int(),
  number: z.number().int(),
  title: z.string(),
  category: z.enum(ticketCategories),
  user: z.object({ id: z.number().int(), name: z.string(), email: z.string() }),
  sn: z.string().nullable(),
  status: z.enum(ticketStatuses),
  priority: z.enum(ticketPriorities),
  assignee: ticketPersonSchema.nullable(),
  tags: z.array(z.string()),
  /** Due until the first agent reply (null once answered, or on a closed/spam ticket). */
  slaFirstResponseDue: z.string().nullable(),
  /** Due until resolution (null once resolved). While pending the customer the clock is paused. */
  slaResolutionDue: z.string().nullable(),
  /** The SLA clock is paused (pending the customer). */
  slaPaused: z.boolean(),
  /** A due time has passed while it was running. */
  slaBreached: z.boolean(),
  mergedIntoId: z.number().int().nullable(),
  lastActivityAt: z.string(),
  createdAt: z.string(),
});
export type TicketSummary = z.infer<typeof ticketSummarySchema>;

/** Filters shared by the list and its CSV export. */
export const ticketFilterSchema = z.object({
  status: z.enum(ticketStatuses).optional(),
  priority: z.enum(ticketPriorities).optional(),
  category: z.enum(ticketCategories).optional(),
  assigneeId: idParam.optional(),
  sn: z.string().trim().toUpperCase().max(32).optional(),
  userId: idParam.optional(),
  /** PostgreSQL full text over the title, the description and the public thread; a number finds `#number`. */
  keyword: z.string().trim().max(200).optional(),
  tag: ticketTagSchema.optional(),
  createdFrom: isoTimeQuery,
  createdTo: isoTimeQuery,
  slaBreached: queryBoolean.optional(),
  /** active: new, open or pending the customer; mine: assigned to the caller; unassigned: no assignee and still active; breaching: active with a passed due time. */
  view: z.enum(ticketViews).optional(),
});
export type TicketFilter = z.infer<typeof ticketFilterSchema>;
/** GET /api/admin/ticket; `cursor` (the previous page's `nextCursor`) stays fast at any depth. */
export const ticketListQuerySchema = ticketFilterSchema
  .extend(pageQuerySchema.shape)
  .extend({ sort: z.enum(ticketSorts).default('-lastActivityAt'), cursor: z.string().max(128).optional() })
  .strict();
export type TicketListQuery = z.infer<typeof ticketListQuerySchema>;
export const ticketExportQuerySchema = ticketFilterSchema.strict();
/** `total` is exact when `totalExact`; above 10,000 matches it is an estimate. */
export const ticketPageSchema = z.object({
  list: z.array(ticketSummarySchema),
  total: z.number().int().min(0),
  totalExact: z.boolean(),
  nextCursor: z.string().nullable(),
});
export type TicketPage = z.infer<typeof ticketPageSchema>;

// ---------------------------------------------------------------- staff: detail

export const ticketEntrySchema = z.object({
  id: z.number().int(),
  kind: z.enum(ticketEntryKinds),
  /** An internal note: staff only, never sent to the app or by mail. */
  internal: z.boolean(),
  channel: z.enum(ticketEntryChannels),
  /** The staff member (agent entries), the app user (customer entries), or null (system). */
  author: ticketPersonSchema.nullable(),
  /** Plain text; HTML in it is text, shown as typed. */
  body: z.string(),
  attachments: z.array(ticketAttachmentSchema),
  /** The ticket number this entry was moved from by a merge, else null. */
  mergedFromNumber: z.number().int().nullable(),
  createdAt: z.string(),
});
export type TicketEntry = z.infer<typeof ticketEntrySchema>;

/** Fields a change-history row names. */
export const ticketHistoryFields = ['status', 'priority', 'assignee', 'tags', 'merge', 'rating', 'reopen'] as const;
export const ticketHistorySchema = z.object({
  id: z.number().int(),
  at: z.string(),
  /** Staff member, or null for the customer or the platform (see `actorName`). */
  actor: ticketPersonSchema.nullable(),
  actorName: z.string(),
  field: z.enum(ticketHistoryFields),
  from: z.string(),
  to: z.string(),
});
export type TicketHistory = z.infer<typeof ticketHistorySchema>;

export const ticketOtherSchema = z.object({
  id: z.number().int(),
  number: z.number().int(),
  title: z.string(),
  status: z.enum(ticketStatuses),
  createdAt: z.string(),
});

/** GET /api/admin/ticket/:id */
export const ticketDetailSchema = ticketSummarySchema.extend({
  description: z.string(),
  appVersion: z.string(),
  os: z.string(),
  /** The user's locale: replies are mailed in it. */
  userLocale: z.string(),
  attachments: z.array(ticketAttachmentSchema),
  device: ticketDeviceSnapshotSchema.nullable(),
  entries: z.array(ticketEntrySchema),
  /** The same user's other tickets, newest first (at most 20). */
  otherTickets: z.array(ticketOtherSchema),
  history: z.array(ticketHistorySchema),
  rating: ticketRatingSchema.nullable(),
  firstResponseAt: z.string().nullable(),
  resolvedAt: z.string().nullable(),
  closedAt: z.string().nullable(),
  /** Tickets merged into this one, by number. */
  mergedFrom: z.array(z.number().int()),
});
export type TicketDetail = z.infer<typeof ticketDetailSchema>;
export const ticketParamsSchema = z.object({ id: idParam }).strict();
export const ticketAttachmentParamsSchema = z.object({ id: idParam, attachmentId: idParam }).strict();

// ---------------------------------------------------------------- staff: actions

/** POST /api/admin/ticket/:id/reply: a public reply (to the app and by mail) or an internal note; `status` sets the ticket's status in the same step. */
export const ticketReplyBodySchema = z
  .object({
    body: textSchema,
    internal: z.boolean().default(false),
    status: z.enum(['open', 'pending_customer', 'resolved']).optional(),
  })
  .strict();
export type TicketReplyBody = z.infer<typeof ticketReplyBodySchema>;

/** PUT /api/admin/ticket/:id */
export const ticketUpdateBodySchema = z
  .object({
    status: z.enum(ticketStatuses),
    priority: z.enum(ticketPriorities),
    /** A staff member, or null to unassign. */
    assigneeId: idSchema.nullable(),
    tags: z.array(ticketTagSchema).max(TICKET_MAX_TAGS),
  })
  .partial()
  .strict()
  .refine((b) => Object.keys(b).length > 0, 'nothing to change');
export type TicketUpdateBody = z.infer<typeof ticketUpdateBodySchema>;

/** POST /api/admin/ticket/bulk: assign (or unassign) or close up to 100 tickets. */
export const ticketBulkBodySchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('assign'), ids: z.array(idSchema).min(1).max(100), assigneeId: idSchema.nullable() }).strict(),
  z.object({ action: z.literal('close'), ids: z.array(idSchema).min(1).max(100) }).strict(),
]);
export type TicketBulkBody = z.infer<typeof ticketBulkBodySchema>;
/** `skipped`: tickets not found or already in a final state (closed, spam). */
export const ticketBulkResultSchema = z.object({ updated: z.array(z.number().int()), skipped: z.array(z.number().int()) });

/** POST /api/admin/ticket/:id/merge: this ticket closes and its thread moves into `intoId` (same user). */
export const ticketMergeBodySchema = z.object({ intoId: idSchema }).strict();

/** An active staff member tickets can be assigned to. */
export const ticketAssigneeSchema = z.object({ id: z.number().int(), name: z.string(), username: z.string(), role: z.string() });

// ---------------------------------------------------------------- SLA

export const ticketSlaTargetSchema = z.object({
  priority: z.enum(ticketPriorities),
  /** Minutes until the first agent reply. */
  firstResponseMinutes: z.number().int().min(1).max(60 * 24 * 90),
  /** Minutes until resolution. */
  resolutionMinutes: z.number().int().min(1).max(60 * 24 * 365),
});
export type TicketSlaTarget = z.infer<typeof ticketSlaTargetSchema>;
/** GET/PUT /api/admin/ticket/sla: one target per priority. New targets apply to tickets filed (or reprioritised) afterwards. */
export const ticketSlaSchema = z.object({ targets: z.array(ticketSlaTargetSchema) });
export const ticketSlaBodySchema = z
  .object({ targets: z.array(ticketSlaTargetSchema.strict()).length(ticketPriorities.length) })
  .strict()
  .refine((b) => new Set(b.targets.map((t) => t.priority)).size === ticketPriorities.length, 'one target per priority');
export type TicketSlaBody = z.infer<typeof ticketSlaBodySchema>;
/** Defaults: urgent 1 h / 8 h, high 4 h / 24 h, normal 8 h / 72 h, low 24 h / 168 h. */
export const defaultTicketSla: TicketSlaTarget[] = [
  { priority: 'urgent', firstResponseMinutes: 60, resolutionMinutes: 8 * 60 },
  { priority: 'high', firstResponseMinutes: 4 * 60, resolutionMinutes: 24 * 60 },
  { priority: 'normal', firstResponseMinutes: 8 * 60, resolutionMinutes: 72 * 60 },
  { priority: 'low', firstResponseMinutes: 24 * 60, resolutionMinutes: 168 * 60 },
];
