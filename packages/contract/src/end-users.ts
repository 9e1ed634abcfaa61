import { z } from 'zod';
import { builtinCommands, deviceStates, mowerActivities, snSchema } from './device-protocol.ts';
import { isoTimeQuery, pageQuerySchema, queryBoolean } from './envelope.ts';
import { timeZoneSchema } from './time-zone.ts';
import { locales } from './locale.ts';
import { emailSchema, passwordSchema } from './auth.ts';

/**
 * End users: the mower owners who use the company's mobile app (`/api/app/v1/...`), and what
 * staff see of them (`/operation/user`, `/operation/user-distribution`, `/operation/user-log`).
 */

/** `true`/`false` in a query string. */

/** Grace period between a deletion request and the erasure of the account's personal data. */
export const APP_DELETION_GRACE_DAYS = 7;
/** Lifetime of a mailed 6-digit code (verification, password reset). */
export const APP_CODE_TTL_MINUTES = 30;

/** ISO 3166-1 alpha-2, upper case; the server also checks the code is a real country. */
export const countryCodeSchema = z.string().trim().toUpperCase().regex(/^[A-Z]{2}$/, 'ISO 3166-1 alpha-2 country code');
const nameSchema = z.string().trim().min(1).max(64);
const citySchema = z.string().trim().max(128);
const phoneSchema = z.string().trim().regex(/^[+0-9 ()-]{0,32}$/, 'digits, spaces, + ( ) -');
/** A mailed code: exactly six digits. */
export const appCodeSchema = z.string().trim().regex(/^\d{6}$/, 'six digits');
/** The pairing code on the mower's label: 10 characters, shown as `XXXXX-XXXXX`; dashes and case are ignored. */
export const pairingCodeSchema = z
  .string()
  .trim()
  .toUpperCase()
  .transform((code) => code.replace(/[-\s]/g, ''))
  .pipe(z.string().regex(/^[0-9A-Z]{10}$/, '10 letters or digits'));
/** What the label's QR code holds: the app opens it and binds with both values. */
export function pairingQrPayload(sn: string, pairingCode: string): string {
  return `mowerline://bind?sn=${encodeURIComponent(sn)}&code=${encodeURIComponent(pairingCode)}`;
}
export const geoPointSchema = z.object({ lat: z.number().min(-90).max(90), lng: z.number().min(-180).max(180) }).strict();

export const appUserStatuses = ['active', 'unverified', 'disabled', 'deletion_pending'] as const;
export type AppUserStatus = (typeof appUserStatuses)[number];

// ---------------------------------------------------------------- app: accounts

/** POST /api/app/v1/user/register */
export const appRegisterBodySchema = z
  .object({
    email: emailSchema,
    password: passwordSchema,
    name: nameSchema,
    country: countryCodeSchema,
    locale: z.enum(locales),
    timeZone: timeZoneSchema,
    city: citySchema.optional(),
    phone: phoneSchema.optional(),
  })
  .strict();
export type AppRegisterBody = z.infer<typeof appRegisterBodySchema>;
/**
 * The same for a new e-mail and for one that has an account already (whose owner is mailed that
 * someone tried to register it), so the answer cannot tell whether an account exists: no id.
 */
export const appRegisterResultSchema = z.object({ email: z.string(), status: z.literal('unverified'), codeExpiresAt: z.string() });
export type AppRegisterResult = z.infer<typeof appRegisterResultSchema>;

/** POST /api/app/v1/user/verify */
export const appVerifyBodySchema = z.object({ email: emailSchema, code: appCodeSchema }).strict();
/** POST /api/app/v1/user/resend-code and /forgot-password: always succeed, so accounts cannot be discovered. */
export const appEmailBodySchema = z.object({ email: emailSchema }).strict();
/** POST /api/app/v1/user/reset-password: the code mailed by forgot-password. */
export const appResetPasswordBodySchema = z.object({ email: emailSchema, code: appCodeSchema, newPassword: passwordSchema }).strict();
/** PUT /api/app/v1/user/password */
export const appChangePasswordBodySchema = z.object({ oldPassword: passwordSchema, newPassword: passwordSchema }).strict();

/** POST /api/app/v1/user/login */
export const appLoginBodySchema = z.object({ email: emailSchema, password: passwordSchema }).strict();
/** POST /api/app/v1/user/refresh: a refresh token is single use; the answer carries its successor. */
export const appRefreshBodySchema = z.object({ refresh_token: z.string().min(16).max(256) }).strict();
export const appLoginResultSchema = z.object({
  access_token: z.string(),
  expires_at: z.string(),
  refresh_token: z.string(),
  refresh_expires_at: z.string(),
});
export type AppLoginResult = z.infer<typeof appLoginResultSchema>;

/** GET/PUT /api/app/v1/user/profile */
export const appProfileSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  phone: z.string(),
  country: z.string(),
  city: z.string(),
  /** Where the user lives, when the app shared it; country and city follow it. */
  home: geoPointSchema.nullable(),
  locale: z.enum(locales),
  timeZone: z.string(),
  status: z.enum(appUserStatuses),
  createdAt: z.string(),
  /** When the personal data will be erased (a deletion is pending), else null. */
  deletionAt: z.string().nullable(),
});
export type AppProfile = z.infer<typeof appProfileSchema>;
/** With `home` and no `country`/`city`, the server fills both from the coordinates. */
export const appProfileBodySchema = z
  .object({
    name: nameSchema,
    phone: phoneSchema,
    country: countryCodeSchema,
    city: citySchema,
    home: geoPointSchema.nullable(),
    locale: z.enum(locales),
    timeZone: timeZoneSchema,
  })
  .partial()
  .strict()
  .refine((b) => Object.keys(b).length > 0, 'nothing to change');
export type AppProfileBody = z.infer<typeof appProfileBodySchema>;

/** POST /api/app/v1/user/delete: the password again; signing in within the grace period cancels. */
export const appDeleteBodySchema = z.object({ password: passwordSchema }).strict();
export const appDeleteResultSchema = z.object({ deletionAt: z.string() });

// ---------------------------------------------------------------- app: devices

export const deviceRoles = ['owner', 'shared'] as const;
export const appDeviceSchema = z.object({
  sn: z.string(),
  modelCode: z.string(),
  modelName: z.string(),
  role: z.enum(deviceRoles),
  /** The owner's e-mail for a shared mower; the owner's own for an owned one. */
  ownerEmail: z.string(),
  /** Who the owner shares with (owner only; empty for a shared mower). */
  sharedWith: z.array(z.string()),
  boundAt: z.string(),
  online: z.boolean(),
  state: z.enum(deviceStates),
  activity: z.enum(mowerActivities),
  battery: z.number().int().nullable(),
  position: z.object({ lat: z.number(), lng: z.number() }).nullable(),
  lastSeenAt: z.string().nullable(),
});
export type AppDevice = z.infer<typeof appDeviceSchema>;

export const appBindBodySchema = z.object({ sn: snSchema, pairingCode: pairingCodeSchema }).strict();
export const appSnParamsSchema = z.object({ sn: snSchema }).strict();
export const appShareBodySchema = z.object({ email: emailSchema }).strict();
export const appCommandBodySchema = z.object({ name: z.enum([builtinCommands.ping, builtinCommands.reboot]) }).strict();
export const appCommandResultSchema = z.object({ ok: z.boolean(), result: z.unknown().optional(), error: z.string().optional() });

// ---------------------------------------------------------------- app: user log and export

/** What the user log records (`/operation/user-log`); the console shows them under `endUser.action.*`. */
export const userLogActions = [
  'register',
  'verify',
  'login',
  'logout',
  /** A spent refresh token came back: its session was ended and the owner mailed. */
  'session.reuse',
  'password.change',
  'password.forgot',
  'password.reset',
  'profile.update',
  'bind',
  'unbind',
  'share',
  'revoke',
  'command',
  'delete.request',
  'delete.cancel',
  'delete.complete',
  'export',
  'schedule.create',
  'schedule.update',
  'schedule.delete',
  'task.command',
  'feedback.create',
  'feedback.reply',
  'feedback.rate',
  'feedback.reopen',
] as const;
export type UserLogAction = (typeof userLogActions)[number];
export const userLogResults = ['success', 'failure'] as const;

export const userLogSchema = z.object({
  id: z.number().int(),
  at: z.string(),
  /** Stays after the account is erased: then a pseudonymous number that names no one. */
  userId: z.number().int().nullable(),
  /** The account's e-mail while it exists ('' once erased, or when no account matched). */
  email: z.string(),
  action: z.enum(userLogActions),
  result: z.enum(userLogResults),
  sn: z.string(),
  ip: z.string(),
  /** Country of the request's source address when known (ISO alpha-2), else ''. */
  country: z.string(),
  detail: z.record(z.string(), z.unknown()),
});
export type UserLog = z.infer<typeof userLogSchema>;

/** The user's own data (GET /api/app/v1/user/export). */
export const appExportSchema = z.object({
  exportedAt: z.string(),
  profile: appProfileSchema,
  devices: z.array(appDeviceSchema),
  activity: z.array(userLogSchema),
});

// ---------------------------------------------------------------- admin: list, detail, actions

export const endUserSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  phone: z.string(),
  country: z.string(),
  city: z.string(),
  locale: z.enum(locales),
  timeZone: z.string(),
  status: z.enum(appUserStatuses),
  /** Mowers owned or shared with the user. */
  deviceCount: z.number().int(),
  createdAt: z.string(),
  lastLoginAt: z.string().nullable(),
  deletionAt: z.string().nullable(),
  disabledReason: z.string(),
});
export type EndUser = z.infer<typeof endUserSchema>;

/** Filters shared by the list and its CSV export. `keyword` is a prefix of the e-mail or the name. */
export const endUserFilterSchema = z.object({
  keyword: z.string().trim().max(254).optional(),
  country: countryCodeSchema.optional(),
  city: citySchema.optional(),
  status: z.enum(appUserStatuses).optional(),
  registeredFrom: isoTimeQuery,
  registeredTo: isoTimeQuery,
  hasDevice: queryBoolean.optional(),
});
export type EndUserFilter = z.infer<typeof endUserFilterSchema>;
/** GET /api/admin/end-user: newest first; `cursor` (the previous page's `nextCursor`) stays fast at any depth. */
export const endUserListQuerySchema = endUserFilterSchema.extend(pageQuerySchema.shape).extend({ cursor: z.string().max(128).optional() }).strict();
export type EndUserListQuery = z.infer<typeof endUserListQuerySchema>;
export const endUserExportQuerySchema = endUserFilterSchema.strict();
/** `total` is exact when `totalExact`; above 10,000 matches it is an estimate. */
export const endUserPageSchema = z.object({
  list: z.array(endUserSchema),
  total: z.number().int().min(0),
  totalExact: z.boolean(),
  nextCursor: z.string().nullable(),
});
export type EndUserPage = z.infer<typeof endUserPageSchema>;

export const endUserDeviceSchema = z.object({
  sn: z.string(),
  modelCode: z.string(),
  role: z.enum(deviceRoles),
  boundAt: z.string(),
  online: z.boolean(),
  state: z.enum(deviceStates),
  lastSeenAt: z.string().nullable(),
  /** Owner: the users it is shared with; shared: the owner. E-mails. */
  others: z.array(z.string()),
});
/** GET /api/admin/end-user/:id */
export const endUserDetailSchema = endUserSchema.extend({
  home: geoPointSchema.nullable(),
  devices: z.array(endUserDeviceSchema),
  /** The latest user-log rows, newest first. */
  activity: z.array(userLogSchema),
});
export type EndUserDetail = z.infer<typeof endUserDetailSchema>;
export const endUserParamsSchema = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) }).strict();

/** POST /api/admin/end-user/:id/disable (revokes the user's app sessions at once) */
export const endUserDisableBodySchema = z.object({ reason: z.string().trim().min(1).max(500) }).strict();
/** POST /api/admin/end-user/:id/enable */
export const endUserEnableBodySchema = z.object({ reason: z.string().trim().max(500).optional() }).strict();

// ---------------------------------------------------------------- admin: user log

export const userLogFilterSchema = z.object({
  userId: z.coerce.number().int().min(1).max(2_147_483_647).optional(),
  /** Exact e-mail of an existing account. */
  email: emailSchema.optional(),
  sn: z.string().trim().toUpperCase().max(32).optional(),
  action: z.enum(userLogActions).optional(),
  result: z.enum(userLogResults).optional(),
  from: isoTimeQuery,
  to: isoTimeQuery,
});
/** GET /api/admin/end-user/log: newest first, cursor paging as in the user list. */
export const userLogQuerySchema = userLogFilterSchema.extend(pageQuerySchema.shape).extend({ cursor: z.string().max(128).optional() }).strict();
export type UserLogQuery = z.infer<typeof userLogQuerySchema>;
export const userLogExportQuerySchema = userLogFilterSchema.strict();
export const userLogPageSchema = z.object({
  list: z.array(userLogSchema),
  total: z.number().int().min(0),
  totalExact: z.boolean(),
  nextCursor: z.string().nullable(),
});
export type UserLogPage = z.infer<typeof userLogPageSchema>;

// ---------------------------------------------------------------- admin: distribution

/** `home`: the country and city of the user's profile; `device`: where the user's mowers are. */
export const distributionBases = ['home', 'device'] as const;
export type DistributionBasis = (typeof distributionBases)[number];
/** GET /api/admin/statistics/user-by-country and /user-by-city */
export const distributionQuerySchema = z
  .object({
    basis: z.enum(distributionBases).default('home'),
    limit: z.coerce.number().int().min(1).max(300).default(20),
    /** Cities of one country only (ignored by user-by-country). */
    country: countryCodeSchema.optional(),
  })
  .strict();
export type DistributionQuery = z.infer<typeof distributionQuerySchema>;
const countryNameSchema = z.object({ 'zh-CN': z.string(), 'en-US': z.string() });
export const countryCountSchema = z.object({
  country: z.string(),
  /** ISO 3166-1 numeric, as the world-atlas features are keyed ('' when unknown). */
  numeric: z.string(),
  name: countryNameSchema,
  count: z.number().int(),
  /** count / total, 0..1 */
  share: z.number(),
});
export const cityCountSchema = countryCountSchema.extend({
  city: z.string(),
  /** The place's coordinates (device basis, or a home city found in the gazetteer), else null. */
  position: z.object({ lat: z.number(), lng: z.number() }).nullable(),
});
/**
 * `total`: users counted on this basis (home: every user with a country; device: every user with a
 * located mower). A user with mowers in two countries counts once in each, so shares may sum above 1.
 * `other`: what the rows beyond `limit` add up to.
 */
export const countryDistributionSchema = z.object({ basis: z.enum(distributionBases), total: z.number().int(), other: z.number().int(), list: z.array(countryCountSchema) });
export type CountryDistribution = z.infer<typeof countryDistributionSchema>;
export const cityDistributionSchema = z.object({ basis: z.enum(distributionBases), total: z.number().int(), other: z.number().int(), list: z.array(cityCountSchema) });
export type CityDistribution = z.infer<typeof cityDistributionSchema>;
