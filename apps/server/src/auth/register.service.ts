import type { FastifyRequest } from 'fastify';
import { checkPassword, type Locale, type RegisterBody, type RegisterResult } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { isUniqueViolation } from '../db/helpers.ts';
import { AppError } from '../http/envelope.ts';
import { staffChanged } from '../staff/staff-events.ts';
import { staffUsers } from '../staff/staff.sql.ts';
import { formAllowedForEmail, formAllowedFromIp } from './form-limits.service.ts';
import { findStaffByUsername } from './login.service.ts';
import { hashPassword } from './password.ts';

/**
 * "Register account": a pending staff account (role user) that cannot sign in until an admin
 * approves it (PUT /api/admin/user status active). Anonymous, so limited per address and per
 * e-mail (counted in the database). Each admin gets one todo in the message box per batch of
 * requests, and a mail with it, written in the requester's language (admins have no stored
 * language preference); further requests while the todo is unread are folded into it.
 */
export async function registerAccount(ctx: AppContext, request: FastifyRequest, body: RegisterBody, locale: Locale): Promise<RegisterResult> {
  const refuse = async (key: 'USERNAME_TAKEN' | 'WEAK_PASSWORD' | 'FORM_LIMITED'): Promise<never> => {
    await ctx.audit(request, { action: 'auth.register', result: 'failure', actor: { id: null, name: body.username }, targetType: 'staff', targetName: body.username, detail: { error: key } });
    throw new AppError(key);
  };
  // Both counted on every request, so neither limit can be dodged by tripping the other first.
  const fromIp = await formAllowedFromIp(ctx, 'register', request.ip);
  const forEmail = await formAllowedForEmail(ctx, 'register', body.email);
  if (!fromIp || !forEmail) return refuse('FORM_LIMITED');
  if (await findStaffByUsername(ctx, body.username)) return refuse('USERNAME_TAKEN');
  if (!checkPassword(body.password, body.username)) return refuse('WEAK_PASSWORD');

  const passwordHash = await hashPassword(body.password, ctx.config.passwordHashCost);
  const reason = body.reason ?? '';
  let inserted;
  try {
    inserted = await ctx.db.transaction(async (tx) => {
      const rows = await tx
        .insert(staffUsers)
        .values({ username: body.username, name: body.name, email: body.email, passwordHash, role: 'user', status: 'pending', requestReason: reason })
        .returning({ id: staffUsers.id, username: staffUsers.username, role: staffUsers.role });
      // The admins hear of it (message box and mail) through the bell.
      await staffChanged(tx, rows[0]!, 'requested', null, { name: body.name, reason, locale });
      return rows;
    });
  } catch (err) {
    // The unique index on lower(username) settles two simultaneous requests for one name.
    if (isUniqueViolation(err)) return refuse('USERNAME_TAKEN');
    throw err;
  }
  const account = inserted[0]!;

  await ctx.audit(request, {
    action: 'auth.register',
    result: 'success',
    actor: { id: account.id, name: account.username },
    targetType: 'staff',
    targetId: account.id,
    targetName: account.username,
    detail: { name: body.name, email: body.email, reason },
  });
  return { id: account.id, username: account.username, status: 'pending' };
}
