import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { CaptchaResult, LoginResult, StaffUser } from '@mowerline/contract';
import { loginAttempts, sessions } from '../../src/auth/auth.sql.ts';
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
  // A light proof of work: the tests solve many captchas on a shared machine; the levels still double it.
  return startServer({ ...config, config: { trustProxy: true, captchaWork: 40, ...config.config } });
}

export const from = (ip: string, extra: Record<string, string> = {}) => ({ 'x-forwarded-for': ip, ...extra });

export interface LoginAs {
  username: string;
  password: string;
  ip: string;
  lang?: string;
  securityToken?: string;
  /** A solved captcha: the widget's payload. */
  captcha?: string;
  remember?: boolean;
}

export function login(server: TestServer, o: LoginAs): Promise<ApiResponse<LoginResult & { captchaRequired?: boolean }>> {
  const body: Record<string, unknown> = { username: o.username, password: o.password };
  if (o.captcha) body.captcha = o.captcha;
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

/** A fresh challenge for `username` from `ip`. */
export async function fetchChallenge(server: TestServer, ip: string, username?: string): Promise<CaptchaResult> {
  const res = await server.api<CaptchaResult>('POST', '/api/admin/user/verification-code', { body: username ? { username } : {}, headers: from(ip) });
  expect(res.body.code).toBe(0);
  return res.body.data;
}

/** Does the proof of work the way the widget does (altcha-lib's solver) and encodes the widget's payload. */
export async function solve(challenge: CaptchaResult['challenge']): Promise<{ captcha: string; counter: number }> {
  const solution = await solveChallenge({ challenge: challenge as Challenge, deriveKey });
  expect(solution).not.toBeNull();
  const payload = { challenge: { parameters: challenge.parameters, signature: challenge.signature }, solution };
  return { captcha: Buffer.from(JSON.stringify(payload)).toString('base64'), counter: solution!.counter };
}

/** A fresh captcha for `username` from `ip`, solved: `{ captcha }` to spread into a sign-in. */
export async function solvedCaptcha(server: TestServer, ip: string, username?: string): Promise<{ captcha: string }> {
  const { captcha } = await solve((await fetchChallenge(server, ip, username)).challenge);
  return { captcha };
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
