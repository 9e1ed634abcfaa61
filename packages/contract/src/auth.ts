import { z } from 'zod';
import { roles } from './roles.ts';

export const usernameSchema = z
  .string()
  .trim()
  .min(3)
  .max(32)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'letters, digits, dot, dash and underscore');
/** A password as typed: its strength is checked by `checkPassword`, not here. */
export const passwordSchema = z.string().min(1).max(128);
export const emailSchema = z.email().max(254);

/** POST /api/admin/user/login */
export const loginBodySchema = z
  .object({
    username: z.string().trim().min(1).max(64),
    password: passwordSchema,
    /** The solved proof-of-work captcha: the ALTCHA widget's payload (base64 JSON of challenge and solution). */
    captcha: z.string().max(4096).optional(),
    /** Longer session for a trusted browser ("remember password"). */
    remember: z.boolean().optional(),
  })
  .strict();
export type LoginBody = z.infer<typeof loginBodySchema>;

export const loginResultSchema = z.object({
  access_token: z.string(),
  expires_at: z.string(),
  /** Browser trust token: keep it in local storage and send it as `X-Security-Token` (docs/api.md). */
  security_token: z.string(),
});
export type LoginResult = z.infer<typeof loginResultSchema>;

/** Data of a LOGIN_FAILED / CAPTCHA_* error: whether the next attempt needs a captcha. */
export const loginFailureSchema = z.object({ captchaRequired: z.boolean() });

/** The request header that carries the browser's trust token (`security_token` in local storage). */
export const SECURITY_TOKEN_HEADER = 'X-Security-Token';
/** Data of a 401 (NOT_SIGNED_IN) when the request carried a valid trust token: its renewal. */
export const notSignedInDataSchema = z.object({ security_token: z.string() }).nullable();

/** Data of calls that only confirm (logout, password change, forgot and reset password). */
export const doneSchema = z.null();

/**
 * POST /api/admin/user/verification-code: the body may be left out; with the username the challenge
 * is as hard as that username's failures call for (a sign-in refuses an easier one).
 */
export const captchaBodySchema = z.object({ username: z.string().trim().max(64).optional() }).strict().nullish();
/** An ALTCHA proof-of-work challenge (v2 format), signed by the server; the widget solves it. */
export const captchaChallengeSchema = z.object({
  parameters: z.object({
    algorithm: z.string(),
    nonce: z.string(),
    salt: z.string(),
    cost: z.number().int(),
    keyLength: z.number().int(),
    keyPrefix: z.string(),
    keySignature: z.string().optional(),
    expiresAt: z.number().int().optional(),
    data: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
  }),
  signature: z.string(),
});
export const captchaResultSchema = z.object({
  challenge: captchaChallengeSchema,
  /** 1 after `CAPTCHA_AFTER_FAILURES` failures, one more per further failure: each level doubles the work. */
  level: z.number().int(),
  expiresIn: z.number().int(),
});
export type CaptchaResult = z.infer<typeof captchaResultSchema>;

/**
 * GET /api/admin/user/info: session state (name, role) and the account facts the console shows in the user centre.
 * jobName/organizationName/locationName repeat job/organization/location (free texts, no code
 * tables); accountId is the stable display id `ML-000001`; registrationDate is when the account
 * was created (ISO); certification is 1 for administrators (verified to manage the platform), else 0.
 */
export const userInfoSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  name: z.string(),
  role: z.enum(roles),
  avatar: z.string(),
  email: z.string(),
  job: z.string(),
  jobName: z.string(),
  organization: z.string(),
  organizationName: z.string(),
  location: z.string(),
  locationName: z.string(),
  introduction: z.string(),
  personalWebsite: z.string(),
  phone: z.string(),
  registrationDate: z.string(),
  accountId: z.string(),
  certification: z.number().int(),
  /** My role requires a second factor and I have none yet: the console sends me to enrol (REQUIRE_2FA_ROLES). */
  mustEnrolSecondFactor: z.boolean(),
});
export type UserInfo = z.infer<typeof userInfoSchema>;

/** PUT /api/admin/user/profile: what a signed-in user may change about themselves. */
export const profileBodySchema = z
  .object({
    name: z.string().trim().min(1).max(64),
    email: emailSchema,
    phone: z.string().trim().max(32),
    job: z.string().trim().max(64),
    organization: z.string().trim().max(128),
    location: z.string().trim().max(128),
    introduction: z.string().max(500),
    personalWebsite: z.union([z.url().max(256), z.literal('')]),
  })
  .partial()
  .strict();
export type ProfileBody = z.infer<typeof profileBodySchema>;

/** PUT /api/admin/user/password */
export const changePasswordBodySchema = z.object({ oldPassword: passwordSchema, newPassword: passwordSchema }).strict();
export type ChangePasswordBody = z.infer<typeof changePasswordBodySchema>;

/** POST /api/admin/user/forgot-password: always answers success, so accounts cannot be discovered. */
export const forgotPasswordBodySchema = z.object({ username: z.string().trim().min(1).max(254) }).strict();
/** POST /api/admin/user/reset-password */
export const resetPasswordBodySchema = z.object({ token: z.string().min(16).max(128), newPassword: passwordSchema }).strict();
export type ResetPasswordBody = z.infer<typeof resetPasswordBodySchema>;

/** POST /api/admin/user/register: a pending staff account an admin must approve. */
export const registerBodySchema = z
  .object({
    username: usernameSchema,
    name: z.string().trim().min(1).max(64),
    email: emailSchema,
    password: passwordSchema,
    reason: z.string().trim().max(500).optional(),
  })
  .strict();
export type RegisterBody = z.infer<typeof registerBodySchema>;
export const registerResultSchema = z.object({ id: z.number().int(), username: z.string(), status: z.literal('pending') });
export type RegisterResult = z.infer<typeof registerResultSchema>;

export const PASSWORD_MIN_LENGTH = 8;

/** The password policy, the same in the console (live hint) and the server (enforced). */
export function checkPassword(password: string, username = ''): boolean {
  if (password.length < PASSWORD_MIN_LENGTH || password.length > 128) return false;
  if (username && password.toLowerCase().includes(username.toLowerCase())) return false;
  const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((re) => re.test(password)).length;
  return classes >= 3;
}
