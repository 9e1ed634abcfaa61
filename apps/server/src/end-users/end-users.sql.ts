import { sql } from 'drizzle-orm';
import { bigserial, doublePrecision, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { appUserStatuses, deviceRoles, userLogActions, userLogResults } from '@mowerline/contract';
import { devices, snText } from '../devices/devices.sql.ts';

/**
 * Mower owners who use the mobile app. `email` is stored lower-cased (sign-in is
 * case-insensitive). `device_count` (owned + shared) is kept with every bind, share and unbind so
 * the has-device filter is an index range at a million users.
 */
export const appUsers = pgTable(
  'app_users',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    name: text('name').notNull(),
    phone: text('phone').notNull().default(''),
    country: text('country').notNull().default(''),
    city: text('city').notNull().default(''),
    homeLat: doublePrecision('home_lat'),
    homeLng: doublePrecision('home_lng'),
    locale: text('locale').notNull(),
    timeZone: text('time_zone').notNull(),
    status: text('status', { enum: appUserStatuses }).notNull().default('unverified'),
    disabledReason: text('disabled_reason').notNull().default(''),
    deviceCount: integer('device_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    /** When a pending deletion erases the account. */
    deletionAt: timestamp('deletion_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('app_users_email').on(t.email),
    // Keyword search is a prefix of the e-mail or of the lower-cased name.
    index('app_users_email_prefix').on(t.email.op('text_pattern_ops')),
    index('app_users_name_prefix').using('btree', sql`lower(${t.name}) text_pattern_ops`),
    // The list is newest first (id desc); each filter has an index ending in id.
    index('app_users_status_id').on(t.status, t.id),
    // Country + status (the list's usual pair) is one range in id order, and its capped count reads the index.
    index('app_users_country_status_id').on(t.country, t.status, t.id),
    index('app_users_country_city_id').on(t.country, t.city, t.id),
    index('app_users_created_id').on(t.createdAt, t.id),
    index('app_users_with_device_id').on(t.id).where(sql`${t.deviceCount} > 0`),
    index('app_users_deletion_at').on(t.deletionAt).where(sql`${t.deletionAt} is not null`),
  ],
);
export type AppUserRow = typeof appUsers.$inferSelect;

/**
 * App users per home country and city, kept by statement triggers on `app_users` (migration 0006:
 * each INSERT/UPDATE/DELETE adds its rows' difference, grouped), so the home-basis distribution
 * reads a few thousand rows instead of counting a million users. Sums and counts of the home
 * coordinates give each city's average position. Rows at zero users are removed.
 */
export const appUserHomePlaces = pgTable(
  'app_user_home_places',
  {
    country: text('country').notNull(),
    city: text('city').notNull(),
    users: integer('users').notNull(),
    latSum: doublePrecision('lat_sum').notNull(),
    latN: integer('lat_n').notNull(),
    lngSum: doublePrecision('lng_sum').notNull(),
    lngN: integer('lng_n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.country, t.city] })],
);

/**
 * A signed-in app. The access token names the session; the refresh token is stored as its
 * SHA-256 and replaced on each use. Revoking the row ends both at once.
 */
export const appSessions = pgTable(
  'app_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: integer('user_id')
      .notNull()
      .references(() => appUsers.id, { onDelete: 'cascade' }),
    refreshHash: text('refresh_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    ip: text('ip').notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
  },
  (t) => [index('app_sessions_user').on(t.userId), uniqueIndex('app_sessions_refresh').on(t.refreshHash)],
);

/**
 * Refresh tokens already traded for a successor (as SHA-256), each naming its session: one coming
 * back means two parties hold the session, so it is ended (app-session.ts). Rows go with their
 * session, or once it has ended.
 */
export const appSpentRefresh = pgTable(
  'app_spent_refresh',
  {
    refreshHash: text('refresh_hash').primaryKey(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => appSessions.id, { onDelete: 'cascade' }),
    spentAt: timestamp('spent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('app_spent_refresh_session').on(t.sessionId)],
);

export const appCodePurposes = ['verify', 'reset'] as const;
/** Mailed 6-digit codes, stored as an HMAC; a few wrong tries burn the code. */
export const appCodes = pgTable(
  'app_codes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => appUsers.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: appCodePurposes }).notNull(),
    codeHash: text('code_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('app_codes_user_purpose').on(t.userId, t.purpose)],
);

/** The pairing code on each mower's label, as a salted SHA-256; issued with the SN. */
export const devicePairingCodes = pgTable('device_pairing_codes', {
  sn: snText('sn')
    .primaryKey()
    .references(() => devices.sn, { onDelete: 'cascade' }),
  codeHash: text('code_hash').notNull(),
  issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Who may use a mower: at most one owner, any number of shared users. */
export const appDeviceLinks = pgTable(
  'app_device_links',
  {
    sn: snText('sn')
      .notNull()
      .references(() => devices.sn, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => appUsers.id, { onDelete: 'cascade' }),
    role: text('role', { enum: deviceRoles }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.sn, t.userId] }),
    uniqueIndex('app_device_links_one_owner').on(t.sn).where(sql`${t.role} = 'owner'`),
    index('app_device_links_user').on(t.userId),
  ],
);

/**
 * Where each located mower is, coded offline (country-coder, nearest city): refreshed from
 * `device_state` when a mower first reports a position or moves far, so the device-basis
 * distribution is a GROUP BY.
 */
export const deviceGeo = pgTable(
  'device_geo',
  {
    sn: snText('sn')
      .primaryKey()
      .references(() => devices.sn, { onDelete: 'cascade' }),
    lat: doublePrecision('lat').notNull(),
    lng: doublePrecision('lng').notNull(),
    country: text('country').notNull(),
    city: text('city').notNull(),
    cityLat: doublePrecision('city_lat'),
    cityLng: doublePrecision('city_lng'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('device_geo_country_city').on(t.country, t.city)],
);

/**
 * What app users did. Kept apart from the system log (staff). `user_id` has no foreign key: rows
 * outlive an erased account, and then the number names no one. Newest first by id; each filter
 * has an index ending in id.
 */
export const userLogs = pgTable(
  'user_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    userId: integer('user_id'),
    email: text('email').notNull().default(''),
    action: text('action', { enum: userLogActions }).notNull(),
    result: text('result', { enum: userLogResults }).notNull(),
    sn: text('sn').notNull().default(''),
    ip: text('ip').notNull().default(''),
    country: text('country').notNull().default(''),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [
    index('user_logs_user_id').on(t.userId, t.id),
    index('user_logs_sn_id').on(t.sn, t.id).where(sql`${t.sn} <> ''`),
    index('user_logs_action_id').on(t.action, t.id),
    index('user_logs_at').on(t.at),
  ],
);

/**
 * The device basis of the distribution, kept by statement triggers on `app_device_links` and
 * `device_geo` (migration 0006). Each change recomputes only the users it touches: their distinct
 * (country, city) of mowers here, and the difference goes to the counts below. The distribution
 * then reads a few thousand rows instead of joining every link with every coded position.
 */
export const appUserDevicePlaces = pgTable(
  'app_user_device_places',
  {
    userId: integer('user_id').notNull(),
    country: text('country').notNull(),
    city: text('city').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.country, t.city] })],
);

/** Users with a mower in each place; `lat`/`lng`: the place's coordinates (gazetteer). */
export const deviceUserPlaces = pgTable(
  'device_user_places',
  {
    country: text('country').notNull(),
    city: text('city').notNull(),
    users: integer('users').notNull(),
    lat: doublePrecision('lat'),
    lng: doublePrecision('lng'),
  },
  (t) => [primaryKey({ columns: [t.country, t.city] })],
);

/**
 * Users with a mower in each country (`named_users`: in a named city of it); the row '*' counts
 * users with a mower in any country / any named city.
 */
export const deviceUserCountries = pgTable('device_user_countries', {
  country: text('country').primaryKey(),
  users: integer('users').notNull(),
  namedUsers: integer('named_users').notNull(),
});
