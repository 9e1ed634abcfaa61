import { boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { staffUsers } from '../staff/staff.sql.ts';

/**
 * A staff member's second factor. TOTP: the secret is encrypted (AES-256-GCM under a key derived
 * from JWT_SECRET, totp-secret.ts) and never leaves the server after enrolment; `lastStep` refuses
 * a code that was already used. A factor counts once `activatedAt` is set (its first code verified).
 */
export const staffFactors = pgTable(
  'staff_factors',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['totp', 'webauthn'] }).notNull(),
    name: text('name').notNull(),
    /** TOTP: the sealed secret. WebAuthn: the registration challenge while pending, then empty. */
    secret: text('secret').notNull(),
    /** WebAuthn: the credential id and COSE public key (base64url), the signature counter and transports. */
    credentialId: text('credential_id'),
    publicKey: text('public_key'),
    counter: integer('counter').notNull().default(0),
    transports: text('transports').notNull().default(''),
    lastStep: integer('last_step').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    activatedAt: timestamp('activated_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [index('staff_factors_user').on(t.userId), uniqueIndex('staff_factors_credential').on(t.credentialId)],
);

/** Single-use recovery codes: only the SHA-256 of each (60 random bits, so no salt or slow hash is needed). */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('recovery_codes_user').on(t.userId)],
);

/**
 * The second step of a sign-in: issued for a right password, valid a few minutes, used once,
 * and dead after a few wrong codes (which also count toward the lock-out).
 */
export const secondFactorChallenges = pgTable('second_factor_challenges', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: integer('user_id')
    .notNull()
    .references(() => staffUsers.id, { onDelete: 'cascade' }),
  remember: boolean('remember').notNull().default(false),
  /** Trust-token state at the password step, so the second step counts attempts against the same source. */
  trusted: boolean('trusted').notNull().default(false),
  failures: integer('failures').notNull().default(0),
  /** 'login': the second step of a sign-in; 'step-up': a passkey confirmation of a signed-in session. */
  purpose: text('purpose', { enum: ['login', 'step-up'] }).notNull().default('login'),
  /** The WebAuthn challenge handed to the browser for this step, if a passkey is used. */
  webauthnChallenge: text('webauthn_challenge'),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});
