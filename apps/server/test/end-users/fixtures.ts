import { randomBytes } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import type { AppLoginResult } from '@mowerline/contract';
import { appUsers, userLogs } from '../../src/end-users/end-users.sql.ts';
import { startServer, type TestServer } from '../harness.ts';
import type { SmtpReceiver } from '../smtp.ts';

export const EN = 'en-US';
export const ZH = 'zh-CN';
/** Meets the password policy. */
export const APP_PASSWORD = 'Mow3r#Garden8';

export function startEndUserServer(smtp: SmtpReceiver, config: Parameters<typeof startServer>[0] = {}) {
  return startServer({ ...config, config: { smtpUrl: smtp.url, ...config.config } });
}

export const uniqueEmail = (name = 'owner') => `${name}.${randomBytes(4).toString('hex')}@example.test`;

/** The 6-digit code of the latest mail of that template to that address. */
export async function mailedCode(smtp: SmtpReceiver, to: string, kind: 'verify' | 'reset', after = 0): Promise<string> {
  const subject = kind === 'verify' ? /code|验证码/ : /[Rr]eset|重置/;
  const mail = await smtp.waitFor((m) => m.to.includes(to) && subject.test(m.subject) && smtp.mails.indexOf(m) >= after);
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
  if (!code) throw new Error(`no code in ${mail.text}`);
  return code;
}

export interface RegisterOpts {
  email?: string;
  name?: string;
  country?: string;
  city?: string;
  locale?: 'zh-CN' | 'en-US';
}

export async function registerApp(server: TestServer, opts: RegisterOpts = {}) {
  const email = opts.email ?? uniqueEmail();
  const res = await server.api('POST', '/api/app/v1/user/register', {
    body: { email, password: APP_PASSWORD, name: opts.name ?? 'Ann Owner', country: opts.country ?? 'DE', city: opts.city, locale: opts.locale ?? 'en-US', timeZone: 'Europe/Berlin' },
  });
  if (res.body.code !== 0) throw new Error(JSON.stringify(res.body));
  // The answer names no account (it is the same for a taken e-mail): the id is read from the database.
  const [row] = await server.ctx.db.select({ id: appUsers.id }).from(appUsers).where(eq(appUsers.email, email.toLowerCase()));
  if (!row) throw new Error(`no account for ${email}`);
  return { email, id: row.id };
}

export async function appLogin(server: TestServer, email: string, password = APP_PASSWORD): Promise<AppLoginResult> {
  const res = await server.api<AppLoginResult>('POST', '/api/app/v1/user/login', { body: { email, password } });
  if (res.body.code !== 0) throw new Error(JSON.stringify(res.body));
  return res.body.data;
}

/** Registered, verified with the mailed code, signed in. */
export async function appUserSignedIn(server: TestServer, smtp: SmtpReceiver, opts: RegisterOpts = {}) {
  const { email, id } = await registerApp(server, opts);
  const code = await mailedCode(smtp, email, 'verify');
  const verified = await server.api('POST', '/api/app/v1/user/verify', { body: { email, code } });
  if (verified.body.code !== 0) throw new Error(JSON.stringify(verified.body));
  const tokens = await appLogin(server, email);
  return { email, id, token: tokens.access_token, tokens };
}

/** Registered and confirmed by staff (no mail needed). */
export async function confirmedAppUser(server: TestServer, adminToken: string, opts: RegisterOpts = {}) {
  const { email, id } = await registerApp(server, opts);
  const res = await server.api('POST', `/api/admin/end-user/${id}/confirm`, { token: adminToken });
  if (res.body.code !== 0) throw new Error(JSON.stringify(res.body));
  const tokens = await appLogin(server, email);
  return { email, id, token: tokens.access_token };
}

export async function logRows(server: TestServer, userId: number) {
  return server.ctx.db.select().from(userLogs).where(eq(userLogs.userId, userId)).orderBy(desc(userLogs.id));
}

export async function createModelAndSn(server: TestServer, adminToken: string, sn: string, modelId?: number) {
  let id = modelId;
  if (!id) {
    const code = `M${randomBytes(3).toString('hex').toUpperCase()}`;
    const model = await server.api<{ id: number }>('POST', '/api/admin/product/model', { token: adminToken, body: { code, name: `Model ${code}` } });
    id = model.body.data.id;
  }
  const res = await server.api<{ sn: string; secret: string; pairingCode: string }>('POST', '/api/admin/product/sn', { token: adminToken, body: { sn, modelId: id } });
  if (res.body.code !== 0) throw new Error(JSON.stringify(res.body));
  return { modelId: id, ...res.body.data };
}
