import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageKinds, type Message, type Page } from '@mowerline/contract';
import { sessions } from '../../src/auth/auth.sql.ts';
import { staffUsers } from '../../src/staff/staff.sql.ts';
import type { TestServer } from '../harness.ts';
import { addStaff, auditRows, EN, PASSWORD, startAuthServer } from './fixtures.ts';

const NEW = 'Fr3sh#Meadow42';

describe('changing the own password', () => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    server = await startAuthServer();
    admin = await server.login();
    await addStaff(server, admin, 'rosa');
    await addStaff(server, admin, 'sven');
  });
  afterAll(() => server.close());

  const change = (token: string, oldPassword: string, newPassword: string, lang?: string) =>
    server.api('PUT', '/api/admin/user/password', { token, body: { oldPassword, newPassword }, lang });

  it('refuses a wrong current password, in both languages, and audits it', async () => {
    const token = await server.login('rosa', PASSWORD);
    expect((await change(token, 'Not#The0ne', NEW)).body).toEqual({ code: 41008, msg: '原密码错误', data: null, status: 'fail' });
    expect((await change(token, 'Not#The0ne', NEW, EN)).body).toMatchObject({ code: 41008, msg: 'The current password is wrong' });
    const audit = await auditRows(server, 'auth.password.change');
    expect(audit.map((r) => [r.actorName, r.result, r.detail])).toEqual([
      ['rosa', 'failure', { reason: 'wrong_old_password' }],
      ['rosa', 'failure', { reason: 'wrong_old_password' }],
    ]);
  });

  it('refuses the same password and one that breaks the policy, in both languages', async () => {
    const token = await server.login('rosa', PASSWORD);
    expect((await change(token, PASSWORD, PASSWORD)).body).toMatchObject({ code: 41013, msg: '新密码不能与原密码相同' });
    expect((await change(token, PASSWORD, PASSWORD, EN)).body).toMatchObject({ code: 41013, msg: 'The new password must differ from the current one' });
    const weak = ['Sh0rt#', 'alllowercase1', 'NoDigitsOrSymbols', 'Rosa#Garden99', '12345678!!'];
    for (const candidate of weak) {
      const res = await change(token, PASSWORD, candidate);
      expect(res.body.code, candidate).toBe(41007);
      expect(res.body.msg).toMatch(/^密码不符合要求/);
    }
    expect((await change(token, PASSWORD, weak[0]!, EN)).body.msg).toMatch(/^The password does not meet the policy/);
    // Nothing changed: the old password still signs in.
    expect(await server.login('rosa', PASSWORD)).toBeTruthy();
  });

  it('on success: new hash (argon2id), other sessions revoked, this one kept, a notice, an audit entry', async () => {
    const current = await server.login('sven', PASSWORD);
    const otherA = await server.login('sven', PASSWORD);
    const otherB = await server.login('sven', PASSWORD);
    const [beforeRow] = await server.ctx.db.select().from(staffUsers).where(eq(staffUsers.username, 'sven'));

    const res = await change(current, PASSWORD, NEW);
    expect(res.body).toEqual({ code: 0, msg: '请求成功', data: null, status: 'ok' });

    expect((await server.api('GET', '/api/admin/user/info', { token: current })).body.code).toBe(0);
    for (const dead of [otherA, otherB]) expect((await server.api('GET', '/api/admin/user/info', { token: dead })).status).toBe(401);
    const alive = await server.ctx.db.select().from(sessions).where(and(eq(sessions.userId, beforeRow!.id), isNull(sessions.revokedAt)));
    expect(alive).toHaveLength(1);

    const [afterRow] = await server.ctx.db.select().from(staffUsers).where(eq(staffUsers.username, 'sven'));
    expect(afterRow!.passwordHash).toMatch(/^\$argon2id\$/);
    expect(afterRow!.passwordChangedAt.getTime()).toBeGreaterThan(beforeRow!.passwordChangedAt.getTime());

    await expect(server.login('sven', PASSWORD)).rejects.toThrow(/41001/);
    const fresh = await server.login('sven', NEW);

    const inbox = await server.api<Page<Message>>('GET', '/api/admin/message/list?type=notice', { token: fresh, lang: EN });
    expect(inbox.body.data.list).toEqual([expect.objectContaining({ messageType: messageKinds.passwordChanged, title: 'Password changed', subTitle: '127.0.0.1', status: 0 })]);

    const audit = (await auditRows(server, 'auth.password.change')).filter((r) => r.actorName === 'sven');
    expect(audit).toEqual([expect.objectContaining({ result: 'success', targetName: 'sven', detail: { revokedSessions: 2 } })]);
  });

  it('needs a session', async () => {
    const res = await change('', PASSWORD, NEW);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(50008);
  });
});
