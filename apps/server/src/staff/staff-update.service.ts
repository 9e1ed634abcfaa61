import { and, asc, eq, isNull } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { checkPassword, type StaffUpdateBody, type StaffWriteResult } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { sessions } from '../auth/auth.sql.ts';
import { recordAttempt } from '../auth/login-attempts.service.ts';
import { hashPassword } from '../auth/password.ts';
import { issueResetLink, linkForAdmin, retireResetLinks } from '../auth/password-reset.service.ts';
import { AppError, localeOf } from '../http/envelope.ts';
import { principal } from '../http/auth.ts';
import { requestMeta } from '../http/request-meta.ts';
import { staffUsers, type StaffRow } from './staff.sql.ts';
import { staffChanged } from './staff-events.ts';
import { toStaffUser } from './staff.service.ts';

const editableFields = ['name', 'email', 'phone', 'role', 'status'] as const;
type EditableField = (typeof editableFields)[number];
type Changes = Partial<Record<EditableField, { from: string; to: string }>>;

interface Outcome {
  after: StaffRow;
  changes: Changes;
  approved: boolean;
}

/**
 * PUT /api/admin/user. Edits profile fields, role and status, and resets the password (set here
 * or by a mailed link). Approving a pending account is its status becoming active.
 *
 * The last-admin rule is race-safe: a change that could remove an active admin first locks every
 * active admin row (in id order, so concurrent edits cannot deadlock) and counts them inside the
 * same transaction, so two admins demoting each other at once cannot both succeed.
 */
export async function updateStaff(ctx: AppContext, request: FastifyRequest, body: StaffUpdateBody): Promise<StaffWriteResult> {
  const actor = principal(request);
  const passwordHash = body.password === undefined ? undefined : await hashPassword(body.password, ctx.config.passwordHashCost);
  let outcome: Outcome;
  let targetName = '';
  try {
    outcome = await ctx.db.transaction(async (tx) => {
      const mayRemoveAdmin = body.role === 'user' || (body.status !== undefined && body.status !== 'active');
      const activeAdmins = mayRemoveAdmin
        ? await tx
            .select({ id: staffUsers.id })
            .from(staffUsers)
            .where(and(eq(staffUsers.role, 'admin'), eq(staffUsers.status, 'active')))
            .orderBy(asc(staffUsers.id))
            .for('update')
        : [];
      // Someone demoted or disabled the caller while this request was on its way.
      if (mayRemoveAdmin && !activeAdmins.some((a) => a.id === actor.id)) throw new AppError('FORBIDDEN');

      const [before] = await tx.select().from(staffUsers).where(eq(staffUsers.id, body.id)).for('update');
      if (!before) throw new AppError('NOT_FOUND');
      targetName = before.username;

      const changes: Changes = {};
      for (const field of editableFields) {
        const to = body[field];
        if (to !== undefined && to !== before[field]) changes[field] = { from: before[field], to };
      }
      const losesAccess = (changes.role && body.role !== 'admin') || (changes.status && body.status !== 'active');
      const wasActiveAdmin = before.role === 'admin' && before.status === 'active';
      if (losesAccess && wasActiveAdmin && activeAdmins.every((a) => a.id === before.id)) throw new AppError('LAST_ADMIN');
      if (losesAccess && before.id === actor.id) throw new AppError('SELF_CHANGE');
      if (changes.status?.to === 'pending') throw new AppError('BACK_TO_PENDING');
      if (body.password !== undefined && !checkPassword(body.password, before.username)) throw new AppError('WEAK_PASSWORD');
      if (body.sendResetLink && !(body.email ?? before.email)) throw new AppError('NO_EMAIL');

      const now = new Date();
      const [after] = await tx
        .update(staffUsers)
        .set({
          name: body.name,
          email: body.email,
          phone: body.phone,
          role: body.role,
          status: body.status,
          ...(passwordHash ? { passwordHash, passwordChangedAt: now } : {}),
          updatedAt: now,
        })
        .where(eq(staffUsers.id, before.id))
        .returning();

      // A password set here makes older reset links pointless; a new link retires them itself.
      if (passwordHash) await retireResetLinks(tx, before.id);
      // A new password, a reset link, or losing the role/account ends every session of that user.
      if (passwordHash || body.sendResetLink || losesAccess) {
        await tx
          .update(sessions)
          .set({ revokedAt: now })
          .where(and(eq(sessions.userId, before.id), isNull(sessions.revokedAt)));
      }
      const approved = before.status === 'pending' && body.status === 'active';
      if (approved) await staffChanged(tx, after!, 'approved', actor.username, {}, now);
      else if (changes.status?.to === 'disabled') await staffChanged(tx, after!, 'disabled', actor.username, {}, now);
      else if (Object.keys(changes).length > 0) await staffChanged(tx, after!, 'updated', actor.username, {}, now);
      if (passwordHash) await staffChanged(tx, after!, 'password_changed', actor.username, { ip: requestMeta(request).ip }, now);
      return { after: after!, changes, approved };
    });
  } catch (err) {
    if (err instanceof AppError) {
      await ctx.audit(request, {
        action: 'staff.update',
        result: 'failure',
        targetType: 'staff',
        targetId: body.id,
        targetName,
        detail: { error: err.key, fields: Object.keys(body).filter((k) => k !== 'id' && k !== 'password') },
      });
    }
    throw err;
  }

  const issued = await recordAndAnnounce(ctx, request, body, outcome);
  return { ...toStaffUser(outcome.after), ...(issued ? { resetLink: linkForAdmin(issued) } : {}) };
}

/** After the commit: the audit entries, then the mails the change calls for (its notices come from its event). */
async function recordAndAnnounce(ctx: AppContext, request: FastifyRequest, body: StaffUpdateBody, { after, changes, approved }: Outcome) {
  const locale = localeOf(request);
  const target = { targetType: 'staff', targetId: after.id, targetName: after.username } as const;
  if (approved) {
    await ctx.audit(request, { action: 'staff.approve', result: 'success', ...target, detail: { changes } });
  } else if (Object.keys(changes).length > 0) {
    await ctx.audit(request, { action: 'staff.update', result: 'success', ...target, detail: { changes } });
  }
  // The link is issued before its audit entry, which says whether it was mailed (never the link).
  const issued = body.sendResetLink ? await issueResetLink(ctx, after, 'password-reset', locale) : undefined;
  if (body.password !== undefined || body.sendResetLink) {
    const method = body.password !== undefined ? 'set' : 'link';
    const mail = issued ? { mail: issued.mail, linkShownToAdmin: issued.mail !== 'sent' } : {};
    await ctx.audit(request, { action: 'staff.password.reset', result: 'success', ...target, detail: { method, ...mail } });
  }

  if (approved) {
    if (after.email) {
      await ctx.mailer.send({ to: after.email, template: 'account-approved', params: { name: after.name, link: `${ctx.config.publicUrl}/#/login` }, locale });
    }
  }
  if (body.password !== undefined) {
    const { ip } = requestMeta(request);
    // A password set by an admin lifts a sign-in lock-out, as a used reset link does.
    await recordAttempt(ctx, after.username.toLowerCase(), ip, 'password_reset');
  }
  return issued;
}
