import { randomBytes } from 'node:crypto';
import { count } from 'drizzle-orm';
import { checkPassword } from '@mowerline/contract';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { hashPassword } from '../auth/password.ts';
import { framed } from './banner.ts';
import { staffUsers } from './staff.sql.ts';

/** A random password that always meets the policy (all four character classes). */
export function randomPassword(): string {
  return `${randomBytes(12).toString('base64url')}aA1!`;
}

/**
 * On an empty database, creates the first admin: with ADMIN_PASSWORD, or with a random password
 * printed once to the terminal. There is never a fixed default password.
 */
export async function ensureInitialAdmin(db: Db, config: Config, print: (text: string) => void): Promise<void> {
  const [row] = await db.select({ n: count() }).from(staffUsers);
  if ((row?.n ?? 0) > 0) return;
  const given = config.adminPassword;
  if (given && !checkPassword(given, config.adminUsername)) {
    throw new Error('ADMIN_PASSWORD does not meet the password policy (8+ characters, three of lower/upper/digit/symbol, not containing the username)');
  }
  const password = given ?? randomPassword();
  // Nodes started together on an empty database all get here: one creates the administrator, the
  // others find the name taken and leave it (and print no password that would not work).
  const created = await db
    .insert(staffUsers)
    .values({
      username: config.adminUsername,
      passwordHash: await hashPassword(password, config.passwordHashCost),
      name: config.adminUsername,
      role: 'admin',
      status: 'active',
    })
    .onConflictDoNothing()
    .returning({ id: staffUsers.id });
  if (created.length > 0 && !given) {
    print(
      framed([
        `First start: created the administrator "${config.adminUsername}".`,
        `Password: ${password}`,
        'It is shown only this once. Sign in and change it.',
        'Lost it? On this machine: npm run reset-admin-password -w @mowerline/server',
      ]),
    );
  }
}
