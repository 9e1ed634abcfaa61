import { z } from 'zod';
import { idParam } from './envelope.ts';

/**
 * Second factors of staff accounts (docs/api.md "Two-factor sign-in"): TOTP apps and single-use
 * recovery codes. A factor is `pending` from enrolment until its first code is verified.
 */
export const factorKinds = ['totp', 'webauthn'] as const;
export type FactorKind = (typeof factorKinds)[number];
/** What a second step or a step-up may be answered with (`recovery`: a recovery code). */
export const proofKinds = ['totp', 'webauthn', 'recovery'] as const;

export const totpCodeSchema = z.string().trim().regex(/^\d{6}$/, 'six digits');
/** As printed: groups of letters and digits; dashes and spaces are ignored. */
export const recoveryCodeSchema = z.string().trim().min(8).max(32).regex(/^[A-Za-z0-9 -]+$/, 'letters, digits and dashes');

/** A WebAuthn response as `@simplewebauthn/browser` produces it (registration or assertion); the server verifies it. */
export const webauthnResponseSchema = z
  .object({
    id: z.string().min(1).max(1024),
    rawId: z.string().min(1).max(1024),
    type: z.literal('public-key'),
    response: z.record(z.string(), z.union([z.string().max(16_384), z.number().int(), z.array(z.string().max(64)).max(16)])),
    clientExtensionResults: z.record(z.string(), z.unknown()),
    authenticatorAttachment: z.string().max(32).optional(),
  })
  .strict();
/** WebAuthn creation or request options for `@simplewebauthn/browser` (PublicKeyCredential*OptionsJSON). */
export const webauthnOptionsSchema = z.record(z.string(), z.unknown());

/** Exactly one proof: a TOTP code, a recovery code, or a passkey assertion. */
const oneProof = (p: { totp?: unknown; recoveryCode?: unknown; webauthn?: unknown; password?: unknown }) =>
  [p.totp, p.recoveryCode, p.webauthn, p.password].filter((v) => v !== undefined).length === 1;

/** Data of the SECOND_FACTOR_REQUIRED answer to a right password: the challenge to finish sign-in with. */
export const secondFactorChallengeSchema = z.object({
  challengeId: z.uuid(),
  /** The proofs this account can give. */
  factors: z.array(z.enum(proofKinds)),
  expiresIn: z.number().int(),
});
export type SecondFactorChallenge = z.infer<typeof secondFactorChallengeSchema>;

/** POST /api/admin/user/login/second-factor */
export const secondFactorBodySchema = z
  .object({ challengeId: z.uuid(), totp: totpCodeSchema.optional(), recoveryCode: recoveryCodeSchema.optional(), webauthn: webauthnResponseSchema.optional() })
  .strict()
  .refine(oneProof, 'exactly one of totp, recoveryCode and webauthn');
/** POST /api/admin/user/login/webauthn-options: the passkey request for a sign-in's challenge. */
export const challengeBodySchema = z.object({ challengeId: z.uuid() }).strict();
export type SecondFactorBody = z.infer<typeof secondFactorBodySchema>;

export const factorSchema = z.object({
  id: z.number().int(),
  kind: z.enum(factorKinds),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type Factor = z.infer<typeof factorSchema>;

/** GET /api/admin/user/two-factor: my factors (never their secrets) and what the policy asks of me. */
export const twoFactorStatusSchema = z.object({
  factors: z.array(factorSchema),
  recoveryCodesLeft: z.number().int(),
  /** My role must have a second factor (REQUIRE_2FA_ROLES). */
  required: z.boolean(),
  /** Until when my last confirmation counts for step-up actions (ISO), or null. */
  stepUpUntil: z.string().nullable(),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;

export const factorNameSchema = z.string().trim().min(1).max(64);

/** POST /api/admin/user/two-factor/totp: a pending TOTP factor; the secret is in this answer only. */
export const totpEnrolmentSchema = z.object({
  factorId: z.number().int(),
  /** Base32, for typing into an authenticator app. */
  secret: z.string(),
  /** otpauth:// URI, the content of the QR code. */
  uri: z.string(),
  /** The QR code as an SVG data URL. */
  qr: z.string(),
});
export type TotpEnrolment = z.infer<typeof totpEnrolmentSchema>;
export const totpStartBodySchema = z.object({ name: factorNameSchema.optional() }).strict().nullish();

/** POST /api/admin/user/two-factor/totp/confirm: the first code activates the factor. */
export const totpConfirmBodySchema = z.object({ factorId: idParam, code: totpCodeSchema }).strict();
/** Recovery codes, shown once: on the first factor and on regeneration; null when the old ones stay. */
export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()).nullable() });
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;

export const factorParamsSchema = z.object({ id: idParam }).strict();

/**
 * POST /api/admin/user/step-up: confirm with a second factor (or, for an account without one, the
 * password) so the step-up actions work for STEP_UP_MINUTES.
 */
export const stepUpBodySchema = z
  .object({
    totp: totpCodeSchema.optional(),
    recoveryCode: recoveryCodeSchema.optional(),
    password: z.string().min(1).max(128).optional(),
    /** A passkey assertion for the challenge of `stepUpWebauthnOptions`. */
    webauthn: webauthnResponseSchema.optional(),
    challengeId: z.uuid().optional(),
  })
  .strict()
  .refine(oneProof, 'exactly one of totp, recoveryCode, webauthn and password');
export const stepUpOptionsSchema = z.object({ challengeId: z.uuid(), options: webauthnOptionsSchema });

/** POST /api/admin/user/two-factor/webauthn/options: a pending passkey and the browser's creation options. */
export const webauthnEnrolmentSchema = z.object({ factorId: z.number().int(), options: webauthnOptionsSchema });
export const webauthnStartBodySchema = z.object({ name: factorNameSchema.optional() }).strict().nullish();
export const webauthnConfirmBodySchema = z.object({ factorId: idParam, response: webauthnResponseSchema }).strict();
export type StepUpBody = z.infer<typeof stepUpBodySchema>;
export const stepUpResultSchema = z.object({ stepUpUntil: z.string() });

/** A signed-in browser of a staff member (user center, staff page). */
export const staffSessionSchema = z.object({
  id: z.uuid(),
  /** e.g. "Chrome on Windows", from the user agent. */
  device: z.string(),
  userAgent: z.string(),
  ip: z.string(),
  /** ISO 3166 alpha-2 from the load balancer's country header (TRUST_PROXY), else empty. */
  country: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  expiresAt: z.string(),
  /** The session making this request. */
  current: z.boolean(),
});
export type StaffSession = z.infer<typeof staffSessionSchema>;
export const sessionParamsSchema = z.object({ sid: z.uuid() }).strict();
export const staffSessionParamsSchema = z.object({ id: idParam, sid: z.uuid() }).strict();
export const staffIdParamsSchema = z.object({ id: idParam }).strict();
export const revokedSchema = z.object({ revoked: z.number().int() });

/** "Chrome on Windows" from a user agent: enough to recognise one's own browsers, not a fingerprint. */
export function describeUserAgent(ua: string): string {
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /OPR\//.test(ua)
      ? 'Opera'
      : /Firefox\//.test(ua)
        ? 'Firefox'
        : /Chrom(e|ium)\//.test(ua)
          ? 'Chrome'
          : /Safari\//.test(ua)
            ? 'Safari'
            : /curl|node|undici|axios|python/i.test(ua)
              ? 'Script'
              : 'Browser';
  const os = /Windows/.test(ua)
    ? 'Windows'
    : /Android/.test(ua)
      ? 'Android'
      : /iPhone|iPad|iOS/.test(ua)
        ? 'iOS'
        : /Mac OS X|Macintosh/.test(ua)
          ? 'macOS'
          : /Linux/.test(ua)
            ? 'Linux'
            : '';
  return os ? `${browser} on ${os}` : browser;
}
