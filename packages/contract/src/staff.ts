import { z } from 'zod';
import { emailSchema, passwordSchema, usernameSchema } from './auth.ts';
import { idSchema, pageQuerySchema } from './envelope.ts';
import { roles } from './roles.ts';

export const staffStatuses = ['active', 'disabled', 'pending'] as const;
export type StaffStatus = (typeof staffStatuses)[number];

export const staffUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  role: z.enum(roles),
  status: z.enum(staffStatuses),
  /** Why a pending account was requested (register form). */
  requestReason: z.string(),
  createdAt: z.string(),
  lastLoginAt: z.string().nullable(),
});
export type StaffUser = z.infer<typeof staffUserSchema>;

/**
 * A one-time link (invitation or admin-started reset) and what became of its mail. When the mail
 * was not sent (no SMTP_URL) or failed, `link` carries the link itself, once, for the admin to pass
 * on by hand; it is never stored or logged in clear.
 */
export const staffLinkResultSchema = z.object({
  mail: z.enum(['sent', 'failed', 'not_sent']),
  link: z.string().nullable(),
  expiresAt: z.string(),
});
export type StaffLinkResult = z.infer<typeof staffLinkResultSchema>;

/** The answer of a staff creation or change: the account, and the link when one was issued. */
export const staffWriteResultSchema = staffUserSchema.extend({ resetLink: staffLinkResultSchema.optional() });
export type StaffWriteResult = z.infer<typeof staffWriteResultSchema>;

/** GET /api/admin/user */
export const staffListQuerySchema = pageQuerySchema
  .extend({
    keyword: z.string().trim().max(64).optional(),
    role: z.enum(roles).optional(),
    status: z.enum(staffStatuses).optional(),
  })
  .strict();
export type StaffListQuery = z.infer<typeof staffListQuerySchema>;

/** POST /api/admin/user: without a password the new colleague is mailed a link to set one. */
export const staffCreateBodySchema = z
  .object({
    username: usernameSchema,
    name: z.string().trim().min(1).max(64),
    email: emailSchema,
    phone: z.string().trim().max(32).optional(),
    role: z.enum(roles),
    password: passwordSchema.optional(),
  })
  .strict();
export type StaffCreateBody = z.infer<typeof staffCreateBodySchema>;

/**
 * PUT /api/admin/user: edit name/email/role/status. `status: 'active'` on a pending account
 * approves it. `password` sets a new one; `sendResetLink` mails a reset link instead.
 * Either way the account's sessions are revoked.
 */
export const staffUpdateBodySchema = z
  .object({
    id: idSchema,
    name: z.string().trim().min(1).max(64).optional(),
    email: emailSchema.optional(),
    phone: z.string().trim().max(32).optional(),
    role: z.enum(roles).optional(),
    status: z.enum(staffStatuses).optional(),
    password: passwordSchema.optional(),
    sendResetLink: z.boolean().optional(),
  })
  .strict()
  .refine((body) => !(body.password !== undefined && body.sendResetLink), {
    message: 'give either password or sendResetLink, not both',
    path: ['sendResetLink'],
  });
export type StaffUpdateBody = z.infer<typeof staffUpdateBodySchema>;

/** GET /api/admin/user/role */
export const roleListQuerySchema = z.object({ keyword: z.string().trim().max(64).optional() }).strict();
export const roleInfoSchema = z.object({
  role: z.enum(roles),
  name: z.string(),
  description: z.string(),
  members: z.number().int(),
});
export type RoleInfo = z.infer<typeof roleInfoSchema>;
