import { z } from 'zod';
import { isoTimeQuery, pageQuerySchema } from './envelope.ts';

export const auditResults = ['success', 'failure'] as const;

/** One audited action: who did what to which target, from where, and how it ended. */
export const systemLogSchema = z.object({
  id: z.number().int(),
  at: z.string(),
  actorId: z.number().int().nullable(),
  actorName: z.string(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string(),
  targetName: z.string(),
  ip: z.string(),
  userAgent: z.string(),
  result: z.enum(auditResults),
  detail: z.record(z.string(), z.unknown()),
});
export type SystemLog = z.infer<typeof systemLogSchema>;

/** GET /api/admin/system/log */
export const systemLogQuerySchema = pageQuerySchema
  .extend({
    actor: z.string().trim().max(64).optional(),
    action: z.string().trim().max(64).optional(),
    targetType: z.string().trim().max(64).optional(),
    result: z.enum(auditResults).optional(),
    from: isoTimeQuery,
    to: isoTimeQuery,
  })
  .strict();
export type SystemLogQuery = z.infer<typeof systemLogQuerySchema>;

/** Actions the server records (the console shows them translated under `audit.action.*`). */
export const auditActions = [
  'auth.login',
  'auth.logout',
  'auth.password.change',
  'auth.password.forgot',
  'auth.password.reset',
  'auth.register',
  'auth.profile.update',
  'auth.notifications.update',
  'staff.create',
  'staff.update',
  'staff.approve',
  'staff.password.reset',
  'staff.session.revoke',
  'staff.2fa.reset',
  'auth.2fa.enrol',
  'auth.2fa.remove',
  'auth.2fa.recovery-codes',
  'auth.2fa.step-up',
  'auth.2fa.use',
  'auth.session.revoke',
  'product.model.create',
  'product.model.update',
  'product.sn.create',
  'product.sn.import',
  'product.sn.update',
  'product.sn.rotate-secret',
  'device.event.ack',
  'device.event.clear',
  'device.command',
  'device.shell.open',
  'device.shell.close',
  'device.export',
  'device.flag.clear',
  // Per artifact kind, so a voice pack upload is not logged as a firmware upload.
  'ota.firmware.upload',
  'ota.firmware.update',
  'ota.voice.upload',
  'ota.voice.update',
  'ota.campaign.create',
  'ota.campaign.pause',
  'ota.campaign.resume',
  'ota.campaign.cancel',
  'ota.upgrade-log.export',
  'app-version.create',
  'app-version.update',
  'app-version.withdraw',
  'end-user.confirm',
  'end-user.disable',
  'end-user.enable',
  'end-user.password-reset',
  'end-user.deletion-cancel',
  'end-user.export',
  'end-user.log.export',
  'task.schedule.create',
  'task.schedule.update',
  'task.schedule.delete',
  'task.schedule.enable',
  'task.schedule.disable',
  'task.schedule.resend',
  'task.command',
  'task.run.export',
  'ticket.update',
  'ticket.reply',
  'ticket.bulk',
  'ticket.merge',
  'ticket.export',
  'ticket.sla.update',
  'content.create',
  'content.update',
  'content.state',
  'content.file.upload',
] as const;
export type AuditAction = (typeof auditActions)[number];

/** What an audited action was done to (the console names each under `audit.target.*`). */
export const auditTargetTypes = [
  'staff',
  'productModel',
  'sn',
  'device',
  'deviceEvent',
  'firmware',
  'voice',
  'campaign',
  'upgrade-log',
  'app-version',
  'endUser',
  'userLog',
  'schedule',
  'task-run',
  'ticket',
  'ticketSla',
  'content',
  'content-file',
  'session',
] as const;
export type AuditTargetType = (typeof auditTargetTypes)[number];
