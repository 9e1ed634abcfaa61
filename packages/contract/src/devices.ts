import { z } from 'zod';
import {
  builtinCommands,
  commandErrorSchema,
  deviceStates,
  eventCodeSchema,
  eventSeverities,
  firmwareVersionSchema,
  MAX_COMMAND_TIMEOUT_MS,
  MIN_COMMAND_TIMEOUT_MS,
  mowerActivities,
  reportedStates,
  snSchema,
} from './device-protocol.ts';
import { idParam, idSchema, isoTimeQuery, pageQuerySchema, queryBoolean } from './envelope.ts';
import { appUserStatuses } from './end-users.ts';
import { tagMapSchema, tagQuerySchema } from './tags.ts';

const idList = z.array(idSchema).min(1).max(500);

export const regionSchema = z.string().trim().toLowerCase().regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'lower-case letters, digits and dashes');
/** GET /api/admin/device/regions: the regions devices are registered in, for the region filters. */
export const deviceRegionsSchema = z.object({ list: z.array(z.string()) });
export type DeviceRegions = z.infer<typeof deviceRegionsSchema>;
/**
 * Who the mower belongs to: the owner's app e-mail once bound (binding writes it), else text staff
 * entered. As a filter it matches the whole value, in any case.
 */
export const ownerSchema = z.string().trim().max(128);

// ---------------------------------------------------------------- device list and detail

export const devicePositionSchema = z.object({ lat: z.number(), lng: z.number(), heading: z.number() });

export const deviceSummarySchema = z.object({
  sn: z.string(),
  modelId: z.number().int(),
  modelCode: z.string(),
  modelName: z.string(),
  enabled: z.boolean(),
  online: z.boolean(),
  /** `offline` when not connected, else the state the mower last reported. */
  state: z.enum(deviceStates),
  activity: z.enum(mowerActivities),
  errorCode: z.string().nullable(),
  battery: z.number().int().nullable(),
  firmware: z.string().nullable(),
  position: devicePositionSchema.nullable(),
  rssi: z.number().int().nullable(),
  bladeRpm: z.number().int().nullable(),
  region: z.string(),
  owner: z.string(),
  lastSeenAt: z.string().nullable(),
  onlineChangedAt: z.string().nullable(),
  createdAt: z.string(),
  /** Staff tags (`{ ring: 'beta' }`). */
  tags: tagMapSchema,
});
export type DeviceSummary = z.infer<typeof deviceSummarySchema>;

export const deviceSorts = ['sn', '-sn', 'createdAt', '-createdAt', 'lastSeenAt', '-lastSeenAt', 'battery', '-battery', 'firmware', '-firmware'] as const;
export type DeviceSort = (typeof deviceSorts)[number];

/** Filters shared by the list and the CSV export. `sn` is a prefix. */
export const deviceFilterSchema = z.object({
  sn: z.string().trim().toUpperCase().max(32).optional(),
  modelId: idParam.optional(),
  firmware: firmwareVersionSchema.optional(),
  online: queryBoolean.optional(),
  state: z.enum(deviceStates).optional(),
  owner: ownerSchema.optional(),
  region: regionSchema.optional(),
  lastSeenFrom: isoTimeQuery,
  lastSeenTo: isoTimeQuery,
  /** Staff tags, repeatable, all must hold: `tag=ring:beta` (this value), `tag=ring` (set at all). Unknown keys match nothing. */
  tag: tagQuerySchema,
  /** Device-reported attributes, the same way: `attr=hwRev:B`. */
  attr: tagQuerySchema,
  /** Members of this device group (static: its list; dynamic: its saved filter, with the other filters too). */
  groupId: idParam.optional(),
  sort: z.enum(deviceSorts).default('sn'),
});
export type DeviceFilter = z.infer<typeof deviceFilterSchema>;

/**
 * GET /api/admin/device. `page` pages by offset; `cursor` (the previous page's `nextCursor`)
 * continues after the last row instead, which stays fast at any depth.
 */
export const deviceListQuerySchema = deviceFilterSchema.extend(pageQuerySchema.shape).extend({ cursor: z.string().max(512).optional() }).strict();
export type DeviceListQuery = z.infer<typeof deviceListQuerySchema>;

/** GET /api/admin/device/export: the same filters, streamed as CSV. */
export const deviceExportQuerySchema = deviceFilterSchema.strict();

/**
 * `total` is exact when `totalExact` is true; above 10,000 matches it is the planner's estimate,
 * so a page never counts a million rows.
 */
export const devicePageSchema = z.object({
  list: z.array(deviceSummarySchema),
  total: z.number().int().min(0),
  totalExact: z.boolean(),
  nextCursor: z.string().nullable(),
});
export type DevicePage = z.infer<typeof devicePageSchema>;

export const deviceEventSchema = z.object({
  id: z.number().int(),
  sn: z.string(),
  code: z.string(),
  /** The catalogue text of a known code in the caller's language, else ''. */
  codeText: z.string(),
  severity: z.enum(eventSeverities),
  status: z.enum(['active', 'acknowledged', 'cleared']),
  message: z.string(),
  context: z.record(z.string(), z.unknown()),
  occurrences: z.number().int(),
  firstAt: z.string(),
  lastAt: z.string(),
  ackBy: z.string().nullable(),
  ackAt: z.string().nullable(),
  ackComment: z.string(),
  clearedBy: z.string().nullable(),
  clearedAt: z.string().nullable(),
  clearComment: z.string(),
});
export type DeviceEvent = z.infer<typeof deviceEventSchema>;
export const eventStatuses = ['active', 'acknowledged', 'cleared'] as const;
export type EventStatus = (typeof eventStatuses)[number];

/** An app user linked to a mower (its owner or a user it is shared with), as staff see them. */
export const deviceAppUserSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  status: z.enum(appUserStatuses),
  /** When the user bound the mower, or when it was shared with them. */
  since: z.string(),
});
export type DeviceAppUser = z.infer<typeof deviceAppUserSchema>;

/** GET /api/admin/device/:sn */
/**
 * What the per-device ingest limits did to this device: messages dropped over its budget (summed
 * over the server nodes, written every few seconds) and when it was flagged for staying far above
 * it (null: not flagged, or staff cleared the flag).
 */
export const deviceIngestSchema = z.object({
  droppedTelemetry: z.number().int(),
  droppedEvents: z.number().int(),
  flaggedAt: z.string().nullable(),
});
export type DeviceIngest = z.infer<typeof deviceIngestSchema>;

export const deviceDetailSchema = deviceSummarySchema.extend({
  remark: z.string(),
  telemetryAt: z.string().nullable(),
  secretRotatedAt: z.string(),
  recentEvents: z.array(deviceEventSchema),
  /** The app account that bound the mower, null while unbound. */
  ownerUser: deviceAppUserSchema.nullable(),
  /** App users the owner shares the mower with, by e-mail. */
  sharedUsers: z.array(deviceAppUserSchema),
  ingest: deviceIngestSchema,
  /** What the device reports about itself (`hwRev`, `region`), kept apart from staff tags. */
  attributes: tagMapSchema,
});
export type DeviceDetail = z.infer<typeof deviceDetailSchema>;

/** GET /api/admin/device/:sn/history — battery and state per time bucket, for a chart. */
export const deviceHistoryQuerySchema = z
  .object({ from: isoTimeQuery, to: isoTimeQuery, points: z.coerce.number().int().min(10).max(1000).default(200) })
  .strict();
export const deviceHistorySchema = z.object({
  from: z.string(),
  to: z.string(),
  bucketSeconds: z.number().int(),
  points: z.array(
    z.object({
      at: z.string(),
      battery: z.number(),
      batteryMin: z.number().int(),
      batteryMax: z.number().int(),
      /** The state reported most often in the bucket. */
      state: z.enum(reportedStates),
      samples: z.number().int(),
    }),
  ),
});
export type DeviceHistory = z.infer<typeof deviceHistorySchema>;

/**
 * POST /api/admin/device/:sn/command — a built-in command over the device's request/response
 * channel. Feature commands (shell, OTA) go through their own, separately guarded endpoints.
 */
export const deviceCommandBodySchema = z
  .object({
    name: z.enum([builtinCommands.ping, builtinCommands.reboot]),
    args: z.record(z.string().max(64), z.unknown()).default({}),
    timeoutMs: z.number().int().min(MIN_COMMAND_TIMEOUT_MS).max(MAX_COMMAND_TIMEOUT_MS).default(10_000),
  })
  .strict();
export type DeviceCommandBody = z.infer<typeof deviceCommandBodySchema>;
export const deviceCommandResultSchema = z.object({ ok: z.boolean(), result: z.unknown().optional(), error: commandErrorSchema.optional() });

// ---------------------------------------------------------------- exception events

/** GET /api/admin/device/event */
export const eventListQuerySchema = pageQuerySchema
  .extend({
    sn: snSchema.optional(),
    code: eventCodeSchema.optional(),
    severity: z.enum(eventSeverities).optional(),
    status: z.enum(eventStatuses).optional(),
    /** Last occurrence at or after / before. */
    from: isoTimeQuery,
    to: isoTimeQuery,
  })
  .strict();
export type EventListQuery = z.infer<typeof eventListQuerySchema>;

export const eventPageSchema = z.object({ list: z.array(deviceEventSchema), total: z.number().int().min(0), totalExact: z.boolean() });

/** POST /api/admin/device/event/ack and /clear — one or many events. */
export const eventActionBodySchema = z.object({ ids: idList, comment: z.string().trim().max(500).optional() }).strict();
export type EventActionBody = z.infer<typeof eventActionBodySchema>;
/** Which events changed, and which were skipped (unknown, or already past that step). */
export const eventActionResultSchema = z.object({ updated: z.array(z.number().int()), skipped: z.array(z.number().int()) });

/** GET /api/admin/device/event/counts — per code, over last occurrence in [from, to]. */
export const eventCountsQuerySchema = z.object({ from: isoTimeQuery, to: isoTimeQuery, severity: z.enum(eventSeverities).optional() }).strict();
export const eventCountSchema = z.object({
  code: z.string(),
  codeText: z.string(),
  severity: z.enum(eventSeverities),
  total: z.number().int(),
  active: z.number().int(),
  acknowledged: z.number().int(),
  cleared: z.number().int(),
});
export type EventCount = z.infer<typeof eventCountSchema>;

// ---------------------------------------------------------------- statistics and gateway

/** GET /api/admin/statistics/online — now, and a series sampled every minute. */
export const onlineStatsQuerySchema = z.object({ from: isoTimeQuery, to: isoTimeQuery, points: z.coerce.number().int().min(10).max(1000).default(240) }).strict();
export const onlineStatsSchema = z.object({
  at: z.string(),
  online: z.number().int(),
  total: z.number().int(),
  bucketSeconds: z.number().int(),
  series: z.array(z.object({ at: z.string(), online: z.number().int(), total: z.number().int() })),
});
export type OnlineStats = z.infer<typeof onlineStatsSchema>;

/** GET /api/admin/device/gateway-stats — this server node's counters since it started. */
export const gatewayStatsSchema = z.object({
  nodeId: z.string(),
  mode: z.enum(['embedded', 'external']),
  brokerConnected: z.boolean(),
  /** Device connections held by the embedded broker (null with an external broker). */
  clients: z.number().int().nullable(),
  ports: z.object({ tcp: z.number().int().nullable(), tls: z.number().int().nullable(), websocketPath: z.string().nullable() }),
  counters: z.record(z.string(), z.number()),
  pending: z.number().int(),
});
export type GatewayStats = z.infer<typeof gatewayStatsSchema>;

// ---------------------------------------------------------------- broker HTTP auth (external brokers)

/*
 * Called by Mosquitto (mosquitto-go-auth, HTTP back-end) and EMQX (HTTP authenticator/authorizer),
 * not by people. Not `.strict()`: the brokers send fields of their own that we do not control.
 */
/** POST /api/device-auth/mqtt */
export const brokerAuthBodySchema = z.object({
  username: z.string().max(128).default(''),
  password: z.string().max(256).default(''),
  clientid: z.string().max(128).default(''),
});
/** POST /api/device-auth/mqtt/acl — go-auth sends `acc` (1 read, 2 write, 3 both, 4 subscribe), EMQX `action`. */
export const brokerAclBodySchema = z.object({
  username: z.string().max(128).default(''),
  clientid: z.string().max(128).default(''),
  topic: z.string().min(1).max(512),
  acc: z.coerce.number().int().min(1).max(4).optional(),
  action: z.enum(['publish', 'subscribe', 'all']).optional(),
});
/** POST /api/device-auth/mqtt/superuser */
export const brokerSuperuserBodySchema = z.object({ username: z.string().max(128).default('') });
/** Answer in the brokers' own format: HTTP 200 allow, 403 deny. */
export const brokerAuthResultSchema = z.object({ result: z.enum(['allow', 'deny']), is_superuser: z.boolean() });
