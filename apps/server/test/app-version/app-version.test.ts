import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { AppLatest, AppVersion } from '@mowerline/contract';
import { systemLogs } from '../../src/system-log/system-log.sql.ts';
import type { TestServer } from '../harness.ts';
import { EN, staffSession, startStaffServer } from '../staff/fixtures.ts';

/** Issue 17 §10–11: releases refuse a bad build, can be edited and withdrawn (audited), keep their link. */
describe('app versions: edit, withdraw, refuse bad input', () => {
  let server: TestServer;
  let admin: string;
  let operator: string;
  beforeAll(async () => {
    server = await startStaffServer();
    admin = await server.login();
    operator = (await staffSession(server, admin, 'otto', 'user')).token;
  });
  afterAll(() => server.close());

  const add = (body: Record<string, unknown>) =>
    server.api<AppVersion>('POST', '/api/admin/product/app-version', { token: admin, body: { platform: 'ios', changelogEn: 'Update', ...body }, lang: EN });
  const latest = (version: string) => server.api<AppLatest>('GET', `/api/app/v1/app-version/latest?platform=ios&version=${version}`);

  it('refuses a build of -5 (never stored as 1)', async () => {
    const res = await add({ version: '3.0.0', build: -5 });
    expect(res.body.code).toBe(40000);
    const list = await server.api<{ total: number }>('GET', '/api/admin/product/app-version?platform=ios', { token: admin });
    expect(list.body.data.total).toBe(0);
  });

  it('edits a release, withdraws it once (audited), and offers the app the newest one still standing', async () => {
    const older = (await add({ version: '3.0.0', build: 300, downloadUrl: 'https://apps.example.com/ml-3.0.0' })).body.data;
    const newer = (await add({ version: '3.1.0', build: 310 })).body.data;
    expect(older.withdrawnAt).toBeNull();
    const edited = await server.api<AppVersion>('PUT', `/api/admin/product/app-version/${newer.id}`, { token: admin, body: { changelogEn: 'Faster maps', downloadUrl: 'https://apps.example.com/ml-3.1.0' } });
    expect(edited.body.data).toMatchObject({ changelogEn: 'Faster maps', downloadUrl: 'https://apps.example.com/ml-3.1.0', build: 310 });
    expect((await latest('2.0.0')).body.data.latest).toMatchObject({ version: '3.1.0', downloadUrl: 'https://apps.example.com/ml-3.1.0' });

    expect((await server.api('POST', `/api/admin/product/app-version/${newer.id}/withdraw`, { token: operator })).status).toBe(403);
    const withdrawn = await server.api<AppVersion>('POST', `/api/admin/product/app-version/${newer.id}/withdraw`, { token: admin });
    expect(withdrawn.body.data).toMatchObject({ id: newer.id, withdrawnAt: expect.any(String), withdrawnBy: 'admin' });
    expect((await server.api('POST', `/api/admin/product/app-version/${newer.id}/withdraw`, { token: admin, lang: EN })).body).toMatchObject({
      code: 43016,
      msg: 'This release has already been withdrawn',
    });
    expect((await server.api('POST', '/api/admin/product/app-version/999999/withdraw', { token: admin })).body.code).toBe(43013);
    expect((await latest('2.0.0')).body.data).toMatchObject({ updateAvailable: true, latest: { version: '3.0.0', downloadUrl: 'https://apps.example.com/ml-3.0.0' } });

    const audit = await server.ctx.db.select().from(systemLogs).where(and(eq(systemLogs.action, 'app-version.withdraw'), eq(systemLogs.result, 'success')));
    expect(audit).toMatchObject([{ targetType: 'app-version', targetId: String(newer.id), targetName: 'ios 3.1.0 (310)', actorName: 'admin' }]);
  });
});
