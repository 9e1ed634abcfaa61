import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  real,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { productModels } from '../product/product.sql.ts';

/**
 * SNs compare byte by byte (COLLATE "C") whatever the database's collation: the primary key then
 * serves both `LIKE 'ABC%'` and the SN order, and SNs sort the same on every database.
 */
export const snText = customType<{ data: string }>({ dataType: () => 'text COLLATE "C"' });
/** Text compared byte by byte for keys built to sort that way (the firmware version key). */
export const byteOrderText = customType<{ data: string }>({ dataType: () => 'text COLLATE "C"' });

/** `last_seen_at` of a device never heard from; kept NOT NULL so keyset paging needs no NULL rules. */
export const NEVER_SEEN = new Date(0);
/** `battery` before the first telemetry. */
export const BATTERY_UNKNOWN = -1;

/** The SN registry: one row per mower that may connect. Changes only when staff change it. */
export const devices = pgTable(
  'devices',
  {
    sn: snText('sn').primaryKey(),
    modelId: integer('model_id')
      .notNull()
      .references(() => productModels.id),
    /** sha256(salt ‖ secret), hex. The secret itself is never stored (docs/device-protocol.md). */
    secretHash: text('secret_hash').notNull(),
    secretSalt: text('secret_salt').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    region: text('region').notNull().default(''),
    /** The owner's app e-mail (kept by bind, unbind and erasure; lower-case), or text staff entered. */
    owner: text('owner').notNull().default(''),
    remark: text('remark').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    secretRotatedAt: timestamp('secret_rotated_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set when the device stayed far above its ingest limits (it was disconnected); staff clear it. */
    flaggedAt: timestamp('flagged_at', { withTimezone: true }),
  },
  (t) => [
    index('devices_model_sn').on(t.modelId, t.sn),
    index('devices_region_sn').on(t.region, t.sn),
    // Owner filters match case-insensitively (`ownerIs`); the SN after it keeps the list's order.
    index('devices_owner_lower_sn').on(sql`lower(${t.owner})`, t.sn),
    index('devices_created_sn').on(t.createdAt, t.sn),
  ],
);
export type DeviceRow = typeof devices.$inferSelect;

/** The owner filter of the device list, the SN list and OTA targets: one e-mail, any case, on `devices_owner_lower_sn`. */
export function ownerIs(owner: string | SQLWrapper): SQL {
  return sql`lower(${devices.owner}) = lower(${owner})`;
}

/**
 * The latest state of each device: one narrow row rewritten by the ingest's batched UPSERT, apart
 * from the registry and from the history. Sortable columns are NOT NULL (sentinels above) so every
 * list order is a plain (column, sn) index range.
 */
export const deviceState = pgTable(
  'device_state',
  {
    sn: snText('sn')
      .primaryKey()
      .references(() => devices.sn, { onDelete: 'cascade' }),
    online: boolean('online').notNull().default(false),
    /** Server receive time of the last presence change; orders presence against telemetry. */
    onlineChangedAt: timestamp('online_changed_at', { withTimezone: true }),
    /** Connection id of the last `online` status (docs/device-protocol.md, presence). */
    connId: text('conn_id').notNull().default(''),
    /**
     * Indexed (list order, staleness sweep), so telemetry advances it at most every
     * LAST_SEEN_RESOLUTION_S: rewriting it with each message made every upsert touch all of this
     * table's indexes instead of none (a HOT update). The exact time is `seenAt` below.
     */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().default(sql`'1970-01-01T00:00:00Z'`),
    /** Time of the latest telemetry applied: the device's, or the receive time when its clock ran ahead (batch-writer.ts). */
    telemetryAt: timestamp('telemetry_at', { withTimezone: true }),
    /** Server receive time of the latest telemetry applied: the state follows receive order, never device time. */
    telemetryReceivedAt: timestamp('telemetry_received_at', { withTimezone: true }),
    state: text('state').notNull().default('idle'),
    activity: text('activity').notNull().default('unknown'),
    errorCode: text('error_code'),
    battery: smallint('battery').notNull().default(BATTERY_UNKNOWN),
    lat: doublePrecision('lat'),
    lng: doublePrecision('lng'),
    heading: real('heading'),
    bladeRpm: integer('blade_rpm'),
    rssi: smallint('rssi'),
    firmware: text('firmware').notNull().default(''),
    /**
     * `firmware` as a key that sorts like `compareVersions` (byte order): OTA version ranges and
     * minimum versions become an index range in SQL (ota/version-key.ts, a PL/pgSQL function in
     * migration 0018). Kept by triggers (migration 0022), never written by the application: computed
     * when a row is inserted and when its firmware changes, not on each telemetry upsert (as a
     * generated column it was a PL/pgSQL call per message, a third of PGlite's cost).
     */
    firmwareKey: byteOrderText('firmware_key'),
  },
  (t) => [
    index('device_state_seen_sn').on(t.lastSeenAt, t.sn),
    index('device_state_battery_sn').on(t.battery, t.sn),
    index('device_state_firmware_sn').on(t.firmware, t.sn),
    // OTA model targets with a version range: the range on the key, the model checked on the registry's primary key.
    index('device_state_firmware_key_sn').on(t.firmwareKey, t.sn),
    // A state filter other than offline always means online too (a disconnected mower shows offline).
    index('device_state_online_state_sn').on(t.state, t.sn).where(sql`${t.online}`),
    // Online count and the staleness sweep read only the online rows.
    index('device_state_online_seen').on(t.lastSeenAt).where(sql`${t.online}`),
  ],
);
export type DeviceStateRow = typeof deviceState.$inferSelect;

/** How far `last_seen_at` may lag the last message (batch-writer.ts); filters and the sweep allow for it. */
export const LAST_SEEN_RESOLUTION_S = 30;

/** When the device was last heard from, exactly: the indexed, coarse column or the latest telemetry's receive time. */
export const seenAt = sql<Date>`greatest(${deviceState.lastSeenAt}, ${deviceState.telemetryReceivedAt})`.mapWith(deviceState.lastSeenAt);

/** Every accepted telemetry message; append-only, trimmed by TELEMETRY_RETENTION_DAYS. */
export const telemetryHistory = pgTable(
  'telemetry_history',
  {
    sn: text('sn').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    state: text('state').notNull(),
    activity: text('activity').notNull(),
    errorCode: text('error_code'),
    battery: smallint('battery').notNull(),
    lat: doublePrecision('lat'),
    lng: doublePrecision('lng'),
    heading: real('heading'),
    bladeRpm: integer('blade_rpm').notNull(),
    rssi: smallint('rssi').notNull(),
    firmware: text('firmware').notNull(),
    /** The device's `ts` when it was further ahead of the receive time than DEVICE_CLOCK_SKEW_SECONDS (`at` is then the receive time); else null. */
    deviceTs: timestamp('device_ts', { withTimezone: true }),
  },
  (t) => [
    // Unique: a QoS 1 redelivery of the same message is written once.
    uniqueIndex('telemetry_history_sn_at').on(t.sn, t.at),
    // Append order ≈ time order: a BRIN index makes the retention delete cheap at any size.
    index('telemetry_history_received_brin').using('brin', t.receivedAt),
  ],
);

/** Exception events: active → acknowledged → cleared, with who/when/comment for each step. */
export const deviceEvents = pgTable(
  'device_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    sn: text('sn')
      .notNull()
      .references(() => devices.sn, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    severity: text('severity', { enum: ['critical', 'major', 'minor', 'warning'] }).notNull(),
    status: text('status', { enum: ['active', 'acknowledged', 'cleared'] }).notNull().default('active'),
    message: text('message').notNull().default(''),
    context: jsonb('context').$type<Record<string, unknown>>().notNull().default({}),
    occurrences: integer('occurrences').notNull().default(1),
    /** The device's id of the latest report, so a redelivered message is not counted twice. */
    lastDeviceEventId: text('last_device_event_id').notNull().default(''),
    firstAt: timestamp('first_at', { withTimezone: true }).notNull(),
    lastAt: timestamp('last_at', { withTimezone: true }).notNull(),
    ackBy: integer('ack_by'),
    ackByName: text('ack_by_name'),
    ackAt: timestamp('ack_at', { withTimezone: true }),
    ackComment: text('ack_comment').notNull().default(''),
    clearedBy: integer('cleared_by'),
    clearedByName: text('cleared_by_name'),
    clearedAt: timestamp('cleared_at', { withTimezone: true }),
    clearComment: text('clear_comment').notNull().default(''),
  },
  (t) => [
    index('device_events_last').on(t.lastAt),
    index('device_events_sn_last').on(t.sn, t.lastAt),
    index('device_events_status_last').on(t.status, t.lastAt),
    index('device_events_code_last').on(t.code, t.lastAt),
    index('device_events_severity_last').on(t.severity, t.lastAt),
    // Severity and status together (the console's "active critical" view): page and capped count in one index range.
    index('device_events_severity_status_last').on(t.severity, t.status, t.lastAt),
    // At most one open event per device and code: repeats fold into it.
    uniqueIndex('device_events_open_sn_code').on(t.sn, t.code).where(sql`${t.status} <> 'cleared'`),
  ],
);
export type DeviceEventRow = typeof deviceEvents.$inferSelect;

/** The online count, sampled once a minute (one row per minute whatever the number of nodes). */
export const deviceOnlineSamples = pgTable('device_online_samples', {
  at: timestamp('at', { withTimezone: true }).primaryKey(),
  online: integer('online').notNull(),
  total: integer('total').notNull(),
});
