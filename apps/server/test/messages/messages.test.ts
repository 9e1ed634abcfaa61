import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message, Page, UnreadCount } from '@mowerline/contract';
import type { TestServer } from '../harness.ts';
import { addStaff, EN, STAFF_PASSWORD, staffSession, startStaffServer } from '../staff/fixtures.ts';

describe('message box', () => {
  let server: TestServer;
  let admin: string;
  let ben: string;
  let cleo: string;
  let cleoId: number;
  beforeAll(async () => {
    server = await startStaffServer();
    admin = await server.login();
    ben = (await staffSession(server, admin, 'ben', 'admin')).token;
    const c = await staffSession(server, admin, 'cleo', 'user');
    cleo = c.token;
    cleoId = c.user.id;
  });
  afterAll(() => server.close());

  const box = async (token: string, query = '', lang?: string) => {
    const res = await server.api<Page<Message>>('GET', `/api/admin/message/list${query}`, { token, lang });
    expect(res.body.code, JSON.stringify(res.body)).toBe(0);
    return res.body.data;
  };
  const unread = async (token: string) => (await server.api<UnreadCount>('GET', '/api/admin/message/unread-count', { token })).body.data;

  it('tells every active admin about a new account, in the reader language', async () => {
    const en = await box(admin, '', EN);
    expect(en.total).toBe(2);
    expect(en.list[0]).toEqual({
      id: expect.any(Number),
      type: 'notice',
      title: 'New staff account',
      subTitle: 'cleo',
      avatar: '',
      content: 'admin created the account cleo (Operator).',
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      messageType: 1,
      status: 0,
    });
    expect(en.list[1]).toMatchObject({ subTitle: 'ben', content: 'admin created the account ben (Administrator).' });
    const zh = await box(admin);
    expect(zh.list[0]).toMatchObject({ title: '新员工账号', content: 'admin 创建了账号 cleo（运营人员）。' });
    // ben was an admin when cleo was added; cleo is not an admin and hears nothing.
    expect((await box(ben)).list.map((m) => m.subTitle)).toEqual(['cleo']);
    expect(await box(cleo)).toEqual({ list: [], total: 0 });
  });

  it('tells a user whose password an admin set', async () => {
    await server.api('PUT', '/api/admin/user', { token: admin, body: { id: cleoId, password: 'Fr3sh#Lawn22' } });
    cleo = await server.login('cleo', 'Fr3sh#Lawn22');
    const { list } = await box(cleo, '', EN);
    expect(list).toMatchObject([{ type: 'notice', title: 'Password changed', subTitle: '127.0.0.1', messageType: 2, status: 0 }]);
    // The time inside the text is written for the reader (their zone when given), never as ISO 8601.
    expect(list[0]!.content).not.toMatch(/\d{4}-\d\d-\d\dT/);
    const when = new Date(list[0]!.time);
    const tokyo = await box(cleo, '?timeZone=Asia%2FTokyo', EN);
    expect(tokyo.list[0]!.content).toContain(new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Asia/Tokyo' }).format(when));
    const zh = await box(cleo, '?timeZone=Asia%2FShanghai');
    expect(zh.list[0]!.content).toContain(new Intl.DateTimeFormat('zh-CN', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Asia/Shanghai' }).format(when));
    expect((await server.api('GET', '/api/admin/message/list?timeZone=Mars%2FOlympus', { token: cleo })).body).toMatchObject({ code: 40000 });
  });

  it('puts account requests in the admins\' todo tab', async () => {
    const res = await server.api('POST', '/api/admin/user/register', {
      body: { username: 'dora', name: 'Dora', email: 'dora@mowerline.test', password: STAFF_PASSWORD, reason: 'Support team' },
    });
    expect(res.body.code).toBe(0);
    const todo = await box(admin, '?type=todo', EN);
    expect(todo.list).toMatchObject([{ type: 'todo', title: 'Account request to approve', subTitle: 'dora', content: 'Dora (dora) asked for an account: Support team', messageType: 3 }]);
    expect(await unread(admin)).toEqual({ message: 0, notice: 2, todo: 1 });
    expect(await unread(cleo)).toEqual({ message: 0, notice: 1, todo: 0 });
  });

  it('marks read only the caller\'s own messages', async () => {
    const mine = (await box(admin, '?type=notice')).list;
    const [cleoMessage] = (await box(cleo)).list;
    const res = await server.api('POST', '/api/admin/message/read', { token: admin, body: { ids: [mine[0]!.id, cleoMessage!.id, 987_654] } });
    expect(res.body).toMatchObject({ code: 0, data: true });
    expect((await box(admin, '?type=notice')).list.map((m) => m.status)).toEqual([1, 0]);
    expect((await box(cleo)).list[0]!.status).toBe(0);
    expect(await unread(admin)).toEqual({ message: 0, notice: 1, todo: 1 });
    // Reading again is harmless.
    expect((await server.api('POST', '/api/admin/message/read', { token: admin, body: { ids: [mine[0]!.id] } })).body.data).toBe(true);
  });

  it('filters by status and type, and paginates', async () => {
    expect((await box(admin, '?status=0')).list.map((m) => m.type).sort()).toEqual(['notice', 'todo']);
    expect((await box(admin, '?status=1')).total).toBe(1);
    const page = await box(admin, '?page=2&pageSize=2');
    expect(page).toMatchObject({ total: 3, list: [{ status: 0 }] });
  });

  it('reads all of one type, then everything', async () => {
    expect((await server.api('POST', '/api/admin/message/read-all', { token: admin, body: { type: 'todo' } })).body.data).toBe(true);
    expect(await unread(admin)).toEqual({ message: 0, notice: 1, todo: 0 });
    expect((await server.api('POST', '/api/admin/message/read-all', { token: admin, body: {} })).body.data).toBe(true);
    expect(await unread(admin)).toEqual({ message: 0, notice: 0, todo: 0 });
    // Other people's boxes are untouched.
    expect(await unread(ben)).toEqual({ message: 0, notice: 1, todo: 1 });
    expect(await unread(cleo)).toEqual({ message: 0, notice: 1, todo: 0 });
  });

  it('refuses malformed calls and callers without a session', async () => {
    const bad: Array<[string, string, unknown]> = [
      ['POST', '/api/admin/message/read', { ids: [] }],
      ['POST', '/api/admin/message/read', { ids: ['1'] }],
      ['POST', '/api/admin/message/read', { ids: Array.from({ length: 501 }, (_, i) => i + 1) }],
      ['POST', '/api/admin/message/read', { ids: [1], all: true }],
      ['POST', '/api/admin/message/read-all', { type: 'alarm' }],
      ['GET', '/api/admin/message/list?type=alarm', undefined],
      ['GET', '/api/admin/message/list?status=2', undefined],
    ];
    for (const [method, path, body] of bad) {
      const res = await server.api(method, path, { token: admin, lang: EN, body });
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(res.body.code, `${method} ${path}`).toBe(40000);
    }
    for (const [method, path] of [['GET', '/api/admin/message/list'], ['GET', '/api/admin/message/unread-count'], ['POST', '/api/admin/message/read-all']] as const) {
      const res = await server.api(method, path, { body: method === 'POST' ? {} : undefined });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe(50008);
    }
  });

  it('is open to every role', async () => {
    await addStaff(server, admin, { username: 'eve' });
    const eve = await server.login('eve', STAFF_PASSWORD);
    expect((await server.api('GET', '/api/admin/message/unread-count', { token: eve })).body).toMatchObject({ code: 0, data: { message: 0, notice: 0, todo: 0 } });
  });
});
