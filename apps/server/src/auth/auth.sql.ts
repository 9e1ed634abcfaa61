import { bigserial, boolean, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { staffUsers } from '../staff/staff.sql.ts';

/** A signed-in browser. The access token names its id; logout and password changes revoke it. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: integer('user_id')
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    remember: boolean('remember').notNull().default(false),
    ip: text('ip').notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
    /**
     * A session the server opens for itself (the demo fleet's set-up): what it does is logged with
     * the system actor, not the administrator whose rights it borrows.
     */
    system: boolean('system').notNull().default(false),
    /** From the load balancer's country header (TRUST_PROXY), else empty. */
    country: text('country').notNull().default(''),
    /** Updated at most once a minute by the guard. */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    /** Last second-factor confirmation (or sign-in): step-up actions need it within STEP_UP_MINUTES. */
    stepUpAt: timestamp('step_up_at', { withTimezone: true }),
  },
  (t) => [index('sessions_user').on(t.userId)],
);

export const loginOutcomes = [
  'ok',
  'wrong_password',
  'captcha_required',
  'captcha_invalid',
  'locked',
  'pending',
  'disabled',
  'password_reset',
  /** A right password on an account with a second factor: not yet a success, not a failure. */
  'second_factor',
  /** A wrong second-factor code: counts toward the lock-out like a wrong password. */
  'wrong_code',
] as const;
export type LoginOutcome = (typeof loginOutcomes)[number];

/** Every sign-in attempt, for captcha and lock-out decisions (kept in the database: nodes are stateless). */
export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    username: text('username').notNull(),
    ip: text('ip').notNull(),
    success: boolean('success').notNull(),
    /** Why it ended so: only 'wrong_password' counts toward lock-out; 'password_reset' ends a lock like a sign-in. */
    reason: text('reason', { enum: loginOutcomes }).notNull(),
    /** Made by a browser holding a valid trust token for this username: such attempts only count against trusted browsers. */
    trusted: boolean('trusted').notNull().default(false),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('login_attempts_username_at').on(t.username, t.at), index('login_attempts_ip_at').on(t.ip, t.at)],
);

/**
 * Proof-of-work challenges that have been used: a challenge is stateless and signed until it is
 * solved; its id lands here on first use, so a second use is refused on every node. Rows go
 * once the challenge has expired.
 */
export const captchas = pgTable('captchas', {
  id: uuid('id').primaryKey().defaultRandom(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});

/**
 * Hits on the anonymous forms (register, forgot password) per fixed window, by source address and
 * by target e-mail; kept in the database so every node counts the same.
 */
export const formHits = pgTable(
  'form_hits',
  {
    /** e.g. 'register:ip', 'register:email', 'forgot:ip', 'forgot:email'. */
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    hits: integer('hits').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key, t.windowStart] }), index('form_hits_window').on(t.windowStart)],
);

/** Single-use reset links; only the SHA-256 of the token is stored. */
export const passwordResets = pgTable(
  'password_resets',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  // A new link retires the user's older ones.
  (t) => [index('password_resets_user').on(t.userId)],
);
