import { expect } from 'vitest';
import type { StaffUser } from '@mowerline/contract';
import { startServer, type TestServer } from '../harness.ts';
import { startSmtpReceiver } from '../smtp.ts';

/** A password that meets the policy and contains none of the usernames used in these tests. */
export const STAFF_PASSWORD = 'Gr4ss#Cutter9';

/** Adds a staff account through the API as the given admin and returns it. */
export async function addStaff(
  server: TestServer,
  adminToken: string,
  fields: { username: string; role?: 'admin' | 'user'; name?: string; email?: string; phone?: string; password?: string | null },
): Promise<StaffUser> {
  const body: Record<string, unknown> = {
    username: fields.username,
    name: fields.name ?? `Name of ${fields.username}`,
    email: fields.email ?? `${fields.username}@mowerline.test`,
    role: fields.role ?? 'user',
  };
  if (fields.phone !== undefined) body.phone = fields.phone;
  if (fields.password !== null) body.password = fields.password ?? STAFF_PASSWORD;
  const res = await server.api<StaffUser>('POST', '/api/admin/user', { token: adminToken, body });
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ code: 0, status: 'ok' });
  return res.body.data;
}

/** Adds an account and signs in as it, returning its token. */
export async function staffSession(server: TestServer, adminToken: string, username: string, role: 'admin' | 'user' = 'user') {
  const user = await addStaff(server, adminToken, { username, role });
  return { user, token: await server.login(username, STAFF_PASSWORD) };
}

export const EN = 'en-US,en;q=0.9';
export const UA = 'mowerline-tests/1.0 (staff)';

/**
 * A server for the staff, log, message and menu suites. These tests sign in with wrong or retired
 * passwords on purpose, all from 127.0.0.1; the captcha and lock-out thresholds are raised so
 * those checks (tested in the auth suites) do not get in the way.
 */
export function startStaffServer(opts: Parameters<typeof startServer>[0] = {}) {
  return startServer({ ...opts, config: { captchaAfterFailures: 1000, lockoutAfterFailures: 1000, ...opts.config } });
}

/** A staff server that mails through a real SMTP receiver, signed in as admin; `close` stops both. */
export async function startMailingStaffServer() {
  const smtp = await startSmtpReceiver();
  const server = await startStaffServer({ config: { smtpUrl: smtp.url } });
  const admin = await server.login();
  const close = async () => {
    await server.close();
    await smtp.close();
  };
  return { smtp, server, admin, close };
}
