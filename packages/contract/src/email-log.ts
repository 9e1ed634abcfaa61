import { z } from 'zod';
import { isoTimeQuery, pageQuerySchema } from './envelope.ts';

export const emailStatuses = ['sent', 'failed', 'not_sent'] as const;
export const emailTemplates = ['password-reset', 'staff-invite', 'account-approved', 'account-request', 'app-verify', 'app-password-reset', 'app-device-shared', 'app-register-existing', 'app-session-ended', 'ticket-reply', 'factor-added', 'factor-removed', 'factors-reset', 'webhook-disabled'] as const;
export type EmailTemplate = (typeof emailTemplates)[number];

export const emailLogSchema = z.object({
  id: z.number().int(),
  to: z.string(),
  subject: z.string(),
  template: z.enum(emailTemplates),
  status: z.enum(emailStatuses),
  error: z.string(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
});
export type EmailLog = z.infer<typeof emailLogSchema>;

/** GET /api/admin/system/email-log */
export const emailLogQuerySchema = pageQuerySchema
  .extend({
    recipient: z.string().trim().max(254).optional(),
    template: z.enum(emailTemplates).optional(),
    status: z.enum(emailStatuses).optional(),
    from: isoTimeQuery,
    to: isoTimeQuery,
  })
  .strict();
export type EmailLogQuery = z.infer<typeof emailLogQuerySchema>;
