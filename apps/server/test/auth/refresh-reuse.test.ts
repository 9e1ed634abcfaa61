import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errors, type AppLoginResult } from '@mowerline/contract';
import { openDatabase, type Database } from '../../src/db/client.ts';
import { emailLogs } from '../../src/email/email.sql.ts';
import { pruneSpentRefresh } from '../../src/end-users/app-session.ts';
import { appSpentRefresh } from '../../src/end-users/end-users.sql.ts';
import type { TestServer } from '../harness.ts';
import { startSmtpReceiver, type SmtpReceiver } from '../smtp.ts';
import { appLogin, logRows, confirmedAppUser } from '../end-users/fixtures.ts';
import { startAuthServer } from './fixtures.ts';

/**
 * A refresh token used twice (the app's and a copy) ends the whole session: the access token the
 * first use issued stops at once on the node that saw the replay and on another node that had it
 * cached (SESSION_CACHE_MS of a minute, so only an invalidation can end the entry). On PostgreSQL
 * node B has its own connections and learns of it by NOTIFY; on PGlite both share the database.
 * Only app sessions have refresh tokens: a staff sign-in answers an access token alone.
 */
const sessionOf = (token: string) => (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sid: string }).sid;

describe('refresh-token reuse ends the session family', () => {
  let smtp: SmtpReceiver;
  let a: TestServer;
  let b: TestServer;
  let bDatabase: Database;
  let admin: string;
  const config = { sessionCacheMs: 60_000 };

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    a = await startAuthServer({ config: { ...config, smtpUrl: smtp.url } });
    bDatabase = a.databaseUrl ? await openDatabase({ url: a.databaseUrl, dataDir: 'unused', onError: () => {} }) : a.database;
    b = await startAuthServer({ database: bDatabase, keepDatabase: true, config: { ...config, smtpUrl: smtp.url } });
    admin = await a.login();
  });
  afterAll(async () => {
    await b?.close();
    if (a?.databaseUrl) await bDatabase?.close();
    await a?.close();
    await smtp?.close();
  });

  const refresh = (server: TestServer, token: string) => server.api<AppLoginResult>('POST', '/api/app/v1/user/refresh', { body: { refresh_token: token } });
  const profile = (server: TestServer, token: string) => server.api('GET', '/api/app/v1/user/profile', { token });

  it('staff sign-ins have no refresh token to replay', async () => {
    const res = await a.api<Record<string, unknown>>('POST', '/api/admin/user/login', { body: { username: 'admin', password: 'Str0ng#Mower26' } });
    expect(res.body.code).toBe(0);
    expect(Object.keys(res.body.data).some((k) => /refresh/i.test(k))).toBe(false);
  });

  it('a replayed refresh token revokes the access token of the legitimate refresh on both nodes, and mails the owner once', async () => {
    const user = await confirmedAppUser(a, admin, { locale: 'zh-CN' });
    const other = await appLogin(a, user.email);
    const first = await appLogin(a, user.email);
    const legit = await refresh(a, first.refresh_token);
    expect(legit.body.code).toBe(0);
    const access = legit.body.data.access_token;
    // Node B holds the session in its cache.
    for (let i = 0; i < 2; i++) expect((await profile(b, access)).status).toBe(200);

    const replay = await refresh(a, first.refresh_token);
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe(errors.APP_REFRESH_INVALID.code);
    expect((await profile(a, access)).status).toBe(401);
    expect((await profile(b, access)).status).toBe(401);
    expect((await refresh(b, legit.body.data.refresh_token)).body.code).toBe(errors.APP_REFRESH_INVALID.code);
    // The user's other session is not part of the family.
    expect((await profile(b, other.access_token)).status).toBe(200);

    const mail = await smtp.waitFor((m) => m.to.includes(user.email) && m.subject.includes('结束'));
    expect(mail.text).toContain('重复使用');
    await expect.poll(async () => (await logRows(a, user.id)).filter((r) => r.action === 'session.reuse').length).toBe(1);
    // A further replay ends nothing new and tells no one again.
    expect((await refresh(b, first.refresh_token)).body.code).toBe(errors.APP_REFRESH_INVALID.code);
    const ended = async () => (await a.ctx.db.select().from(emailLogs).where(eq(emailLogs.to, user.email))).filter((m) => m.template === 'app-session-ended');
    await expect.poll(async () => (await ended()).length).toBe(1);
    expect((await logRows(a, user.id)).filter((r) => r.action === 'session.reuse')).toHaveLength(1);
  });

  it('the copy used first: the app’s own later refresh ends the session the copy renewed', async () => {
    const user = await confirmedAppUser(a, admin);
    const tokens = await appLogin(b, user.email);
    const stolen = await refresh(b, tokens.refresh_token);
    expect(stolen.body.code).toBe(0);
    expect((await profile(a, stolen.body.data.access_token)).status).toBe(200);
    expect((await refresh(a, tokens.refresh_token)).body.code).toBe(errors.APP_REFRESH_INVALID.code);
    expect((await profile(a, stolen.body.data.access_token)).status).toBe(401);
    expect((await profile(b, stolen.body.data.access_token)).status).toBe(401);
    expect((await refresh(b, stolen.body.data.refresh_token)).body.code).toBe(errors.APP_REFRESH_INVALID.code);
    const mail = await smtp.waitFor((m) => m.to.includes(user.email) && /ended one of your sessions/.test(m.subject));
    expect(mail.text).toContain('used twice');
  });

  it('keeps spent tokens only while they could still be used', async () => {
    const user = await confirmedAppUser(a, admin);
    const live = await appLogin(a, user.email);
    expect((await refresh(a, live.refresh_token)).body.code).toBe(0);
    const liveSession = sessionOf(live.access_token);
    const spentOf = async (sessionId: string) => (await a.ctx.db.select().from(appSpentRefresh).where(eq(appSpentRefresh.sessionId, sessionId))).length;
    const ended = await appLogin(a, user.email);
    expect((await refresh(a, ended.refresh_token)).body.code).toBe(0);
    expect((await refresh(a, ended.refresh_token)).body.code).toBe(errors.APP_REFRESH_INVALID.code);

    await pruneSpentRefresh(a.ctx.db, a.config.appRefreshTtlMs);
    expect(await spentOf(sessionOf(ended.access_token))).toBe(0);
    expect(await spentOf(liveSession)).toBe(1);
    // A refresh lifetime later the spent token would have expired anyway.
    await pruneSpentRefresh(a.ctx.db, a.config.appRefreshTtlMs, new Date(Date.now() + a.config.appRefreshTtlMs + 60_000));
    expect(await spentOf(liveSession)).toBe(0);
  });
});
