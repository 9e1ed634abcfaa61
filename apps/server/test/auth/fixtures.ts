import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { CaptchaResult, LoginResult, StaffUser } from '@mowerline/contract';
import { captchas, loginAttempts, sessions } from '../../src/auth/auth.sql.ts';
import { systemLogs } from '../../src/system-log/system-log.sql.ts';
import { startServer, type ApiResponse, type TestServer } from '../harness.ts';

export const EN = 'en-US,en;q=0.9';
/** Meets the policy and contains none of the usernames used in these tests. */
export const PASSWORD = 'Bl4de#Runner7';

/**
 * A server that believes X-Forwarded-For, so each test can sign in "from" its own address and
 * the per-IP captcha rule of one test does not leak into the next.
 */
export function startAuthServer(config: Parameters<typeof startServer>[0] = {}) {
  return startServer({ ...config, config: { trustProxy: true, ...config.config } });
}

export const from = (ip: string, extra: Record<string, string> = {}) => ({ 'x-forwarded-for': ip, ...extra });

export interface LoginAs {
  username: string;
  password: string;
  ip: string;
  lang?: string;
  securityToken?: string;
  captchaId?: string;
  captchaCode?: string;
  remember?: boolean;
}

export function login(server: TestServer, o: LoginAs): Promise<ApiResponse<LoginResult & { captchaRequired?: boolean }>> {
  const body: Record<string, unknown> = { username: o.username, password: o.password };
  if (o.captchaId) body.captchaId = o.captchaId;
  if (o.captchaCode) body.captchaCode = o.captchaCode;
  if (o.remember !== undefined) body.remember = o.remember;
  const headers = from(o.ip, o.securityToken ? { 'x-security-token': o.securityToken } : {});
  return server.api('POST', '/api/admin/user/login', { body, lang: o.lang, headers });
}

/** Adds an active staff account through the admin API. */
export async function addStaff(server: TestServer, adminToken: string, username: string, extra: { email?: string; role?: 'admin' | 'user' } = {}) {
  const res = await server.api<StaffUser>('POST', '/api/admin/user', {
    token: adminToken,
    body: { username, name: `Name of ${username}`, email: extra.email ?? `${username}@mowerline.test`, role: extra.role ?? 'user', password: PASSWORD },
  });
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ code: 0 });
  return res.body.data;
}

/** A fresh captcha and its answer, read from the database (the test plays the human reading the image). */
export async function solvedCaptcha(server: TestServer, ip: string): Promise<{ captchaId: string; captchaCode: string }> {
  const res = await server.api<CaptchaResult>('POST', '/api/admin/user/verification-code', { body: {}, headers: from(ip) });
  expect(res.body.code).toBe(0);
  const [row] = await server.ctx.db.select().from(captchas).where(eq(captchas.id, res.body.data.captchaId));
  return { captchaId: res.body.data.captchaId, captchaCode: row!.answer.toUpperCase() };
}

export async function auditRows(server: TestServer, action: string) {
  return server.ctx.db.select().from(systemLogs).where(eq(systemLogs.action, action)).orderBy(systemLogs.id);
}

export async function attemptRows(server: TestServer, username: string) {
  return server.ctx.db.select().from(loginAttempts).where(eq(loginAttempts.username, username)).orderBy(loginAttempts.id);
}

export async function sessionRows(server: TestServer) {
  return server.ctx.db.select().from(sessions);
}
