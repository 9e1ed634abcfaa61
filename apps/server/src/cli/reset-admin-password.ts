import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { framed } from '../staff/banner.ts';
import { resetStaffPassword } from '../staff/reset-password.ts';

/**
 * `npm run reset-admin-password -w @mowerline/server -- [--user admin]`: a lost first password is
 * recovered on the server machine, with the server's own configuration (DATA_DIR / DATABASE_URL).
 * With the embedded database, stop the server first: PGlite allows one process per data directory.
 */
async function main() {
  const config = loadConfig();
  const { values } = parseArgs({ options: { user: { type: 'string', short: 'u' } } });
  const username = values.user ?? config.adminUsername;
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  try {
    const reset = await resetStaffPassword(database.db, username, config.passwordHashCost);
    process.stdout.write(
      framed([
        `New password for "${reset.username}": ${reset.password}`,
        'It is shown only this once. Sign in and change it in the user center.',
        `Every session of this account was signed out (${reset.revokedSessions}).`,
        ...(reset.status === 'active' ? [] : [`Note: the account is ${reset.status}; an administrator must enable it.`]),
      ]) + '\n',
    );
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
