import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageKinds, type Message, type Page, type RegisterResult } from '@mowerline/contract';
import { emailLogs } from '../../src/email/email.sql.ts';
import { messages } from '../../src/messages/messages.sql.ts';
import { staffUsers } from '../../src/staff/staff.sql.ts';
import type { TestServer } from '../harness.ts';
import { startSmtpReceiver, type SmtpReceiver } from '../smtp.ts';
import { addStaff, auditRows, EN, from, startAuthServer } from './fixtures.ts';

/** Issue 12 §9: 30 register requests made 30 pending accounts, 30 todos per admin and 60 mails. */
describe('spam through the anonymous forms', () => {
  let smtp: SmtpReceiver;
  let server: TestServer;
  let admin: string;
  let boss: string;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    server = await startAuthServer({ config: { smtpUrl: smtp.url, formLimitPerIp: 10 } });
    admin = await server.login();
    await server.api('PUT', '/api/admin/user/profile', { token: admin, body: { email: 'admin@mowerline.test' } });
    await addStaff(server, admin, 'boss', { role: 'admin', email: 'boss@mowerline.test' });
    boss = await server.login('boss', 'Bl4de#Runner7');
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });

  const register = (i: number, ip: string, email = `spam${i}@spam.test`) =>
    server.api<RegisterResult>('POST', '/api/admin/user/register', {
      body: { username: `spam${i}`, name: `Spam ${i}`, email, password: 'Gr33n#Lawns' },
      headers: from(ip),
      lang: EN,
    });
  const mailsTo = async (address: string) => (await server.ctx.db.select().from(emailLogs)).filter((m) => m.to.includes(address));
  const todos = async (token: string) =>
    (await server.api<Page<Message>>('GET', '/api/admin/message/list?type=todo&pageSize=100', { token, lang: EN })).body.data;

  it('30 registers from one address: 10 accepted, the rest refused; one todo per admin for the batch, one mail each', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 30; i++) codes.push((await register(i, '10.9.0.1')).body.code);
    expect(codes.slice(0, 10)).toEqual(Array<number>(10).fill(0));
    expect(new Set(codes.slice(10))).toEqual(new Set([41030]));
    const refused = await register(99, '10.9.0.1');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ code: 41030, msg: 'Too many requests from this address or for this e-mail, try again later', data: null, status: 'fail' });
    const zh = await server.api('POST', '/api/admin/user/register', { body: { username: 'spam98', name: 'S', email: 's98@spam.test', password: 'Gr33n#Lawns' }, headers: from('10.9.0.1') });
    expect(zh.body).toMatchObject({ code: 41030, msg: '来自此地址或针对此邮箱的请求过多，请稍后再试' });

    const pending = await server.ctx.db.select().from(staffUsers).where(eq(staffUsers.status, 'pending'));
    expect(pending).toHaveLength(10);
    expect((await auditRows(server, 'auth.register')).filter((r) => r.detail.error === 'FORM_LIMITED')).toHaveLength(22);

    // One todo per admin, holding the newest request and the count of the others.
    for (const token of [admin, boss]) {
      const box = await todos(token);
      expect(box.total).toBe(1);
      expect(box.list[0]).toMatchObject({ messageType: messageKinds.accountRequest, subTitle: 'spam9', content: expect.stringContaining('(and 9 more account requests to approve)') });
    }
    const zhBox = await server.api<Page<Message>>('GET', '/api/admin/message/list?type=todo', { token: admin });
    expect(zhBox.body.data.list[0]!.content).toContain('（另有 9 个账号申请待审批）');
    // One mail per admin for the batch, not one per request.
    expect(await mailsTo('admin@mowerline.test')).toHaveLength(1);
    expect(await mailsTo('boss@mowerline.test')).toHaveLength(1);
  });

  it('once an admin has read the todo, the next request makes a new one (and a mail) for that admin only', async () => {
    const box = await todos(admin);
    expect((await server.api('POST', '/api/admin/message/read', { token: admin, body: { ids: box.list.map((m) => m.id) } })).body.code).toBe(0);
    expect((await register(100, '10.9.0.2')).body.code).toBe(0);
    const [mine] = (await todos(admin)).list.filter((m) => m.status === 0);
    expect(mine).toMatchObject({ subTitle: 'spam100', content: expect.not.stringContaining('more account requests') });
    expect((await todos(boss)).total).toBe(1);
    expect(await mailsTo('admin@mowerline.test')).toHaveLength(2);
    expect(await mailsTo('boss@mowerline.test')).toHaveLength(1);
    const rows = await server.ctx.db.select().from(messages).where(eq(messages.kind, messageKinds.accountRequest));
    expect(rows).toHaveLength(3);
  });

  it('one mailbox is not registered more than 3 times a day, from any number of addresses', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) codes.push((await register(200 + i, `10.9.1.${i}`, 'victim@spam.test')).body.code);
    expect(codes).toEqual([0, 0, 0, 41030, 41030]);
  });

  it('forgot-password answers success every time but mails one mailbox at most 3 times a day', async () => {
    await addStaff(server, admin, 'target', { email: 'target@mowerline.test' });
    for (let i = 0; i < 8; i++) {
      const res = await server.api('POST', '/api/admin/user/forgot-password', { body: { username: i % 2 ? 'target' : 'TARGET@mowerline.test' }, headers: from(`10.9.2.${i}`) });
      expect(res.body.code).toBe(0);
    }
    // Mailing happens after the answer: wait for the audit rows of all eight.
    await expect.poll(async () => (await auditRows(server, 'auth.password.forgot')).length).toBe(8);
    expect(await mailsTo('target@mowerline.test')).toHaveLength(3);
    const limited = (await auditRows(server, 'auth.password.forgot')).filter((r) => r.detail.limited === 1);
    expect(limited).toHaveLength(5);
  });

  it('forgot-password from one address stops mailing after 10 requests an hour', async () => {
    const names = Array.from({ length: 12 }, (_, i) => `victim${i}`);
    for (const name of names) await addStaff(server, admin, name, { email: `${name}@mowerline.test` });
    for (const name of names) {
      expect((await server.api('POST', '/api/admin/user/forgot-password', { body: { username: name }, headers: from('10.9.3.1') })).body.code).toBe(0);
    }
    await expect.poll(async () => (await auditRows(server, 'auth.password.forgot')).length).toBe(20);
    const ids = (await server.ctx.db.select({ id: staffUsers.id }).from(staffUsers).where(inArray(staffUsers.username, names))).length;
    expect(ids).toBe(12);
    const mailed = await Promise.all(names.map(async (n) => (await mailsTo(`${n}@mowerline.test`)).length));
    expect(mailed).toEqual([...Array<number>(10).fill(1), 0, 0]);
    const refused = (await auditRows(server, 'auth.password.forgot')).filter((r) => r.detail.error === 'FORM_LIMITED');
    expect(refused).toHaveLength(2);
  });
});
