import { hostname } from 'node:os';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { hashPassword, type PasswordHashCost } from '../auth/password.ts';
import { loginAttempts } from '../auth/auth.sql.ts';
import { retireResetLinks } from '../auth/password-reset.service.ts';
import { revokeUserSessions } from '../auth/session.service.ts';
import { systemLogs } from '../system-log/system-log.sql.ts';
import { randomPassword } from './bootstrap.ts';
import { staffUsers } from './staff.sql.ts';

export interface PasswordReset {
  username: string;
  password: string;
  status: string;
  revokedSessions: number;
}

/**
 * Recovery on the server machine (`npm run reset-admin-password`): gives a staff account a new
 * random password, as an admin's reset would — older reset links and every session end, a sign-in
 * lock-out is lifted — and records it in the system log with the system as the actor.
 */
export async function resetStaffPassword(db: Db, username: string, cost: PasswordHashCost): Promise<PasswordReset> {
  const [user] = await db.select().from(staffUsers).where(sql`lower(${staffUsers.username}) = ${username.toLowerCase()}`).limit(1);
  if (!user) throw new Error(`No staff account named "${username}".`);
  const password = randomPassword();
  const now = new Date();
  const revokedSessions = await db.transaction(async (tx) => {
    await tx.update(staffUsers).set({ passwordHash: await hashPassword(password, cost), passwordChangedAt: now, updatedAt: now }).where(eq(staffUsers.id, user.id));
    await retireResetLinks(tx, user.id);
    await tx.insert(loginAttempts).values({ username: user.username.toLowerCase(), ip: '', success: true, reason: 'password_reset', trusted: false, at: now });
    return revokeUserSessions(tx, user.id);
  });
  await db.insert(systemLogs).values({
    actorId: null,
    actorName: 'system',
    action: 'staff.password.reset',
    targetType: 'staff',
    targetId: String(user.id),
    targetName: user.username,
    ip: '',
    userAgent: 'reset-admin-password (command line)',
    result: 'success',
    detail: { method: 'command-line', host: hostname(), revokedSessions },
  });
  return { username: user.username, password, status: user.status, revokedSessions };
}
