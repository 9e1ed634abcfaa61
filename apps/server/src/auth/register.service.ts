import type { FastifyRequest } from 'fastify';
import { and, eq, ne } from 'drizzle-orm';
import { checkPassword, messageKinds, type Locale, type RegisterBody, type RegisterResult } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { isUniqueViolation } from '../db/helpers.ts';
import { AppError } from '../http/envelope.ts';
import { staffUsers } from '../staff/staff.sql.ts';
import { findStaffByUsername } from './login.service.ts';
import { hashPassword } from './password.ts';

/**
 * "Register account": a pending staff account (role user) that cannot sign in until an admin
 * approves it (PUT /api/admin/user status active). Every admin gets a todo in the message box and
 * a mail, written in the requester's language (admins have no stored language preference).
 */
export async function registerAccount(ctx: AppContext, request: FastifyRequest, body: RegisterBody, locale: Locale): Promise<RegisterResult> {
  const refuse = async (key: 'USERNAME_TAKEN' | 'WEAK_PASSWORD'): Promise<never> => {
    await ctx.audit(request, { action: 'auth.register', result: 'failure', actor: { id: null, name: body.username }, targetType: 'staff', targetName: body.username, detail: { error: key } });
    throw new AppError(key);
  };
  if (await findStaffByUsername(ctx, body.username)) return refuse('USERNAME_TAKEN');
  if (!checkPassword(body.password, body.username)) return refuse('WEAK_PASSWORD');

  const passwordHash = await hashPassword(body.password);
  const reason = body.reason ?? '';
  let inserted;
  try {
    inserted = await ctx.db
      .insert(staffUsers)
      .values({ username: body.username, name: body.name, email: body.email, passwordHash, role: 'user', status: 'pending', requestReason: reason })
      .returning({ id: staffUsers.id, username: staffUsers.username });
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
  await ctx.notify.toAdmins('todo', messageKinds.accountRequest, { username: account.username, name: body.name, reason });
  const admins = await ctx.db
    .select({ email: staffUsers.email })
    .from(staffUsers)
    .where(and(eq(staffUsers.role, 'admin'), eq(staffUsers.status, 'active'), ne(staffUsers.email, '')));
  const link = `${ctx.config.publicUrl}/#/system/system-user?status=pending`;
  for (const admin of admins) {
    await ctx.mailer.send({ to: admin.email, template: 'account-request', params: { name: body.name, username: account.username, link }, locale });
  }
  return { id: account.id, username: account.username, status: 'pending' };
}
