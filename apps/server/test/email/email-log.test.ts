import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmailLog, Page, StaffUser } from '@mowerline/contract';
import type { TestServer } from '../harness.ts';
import type { SmtpReceiver } from '../smtp.ts';
import { addStaff, EN, startMailingStaffServer, startStaffServer } from '../staff/fixtures.ts';

/** A local port with nothing listening on it: SMTP there is unreachable. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

async function emailLog(server: TestServer, token: string, query = '') {
  const res = await server.api<Page<EmailLog>>('GET', `/api/admin/system/email-log${query}`, { token });
  expect(res.body.code, JSON.stringify(res.body)).toBe(0);
  return res.body.data;
}

/** Sends a mail through the staff API: a password reset link for a fresh account. */
async function mailResetLink(server: TestServer, token: string, username: string, lang?: string): Promise<StaffUser> {
  const user = await addStaff(server, token, { username, email: `${username}@mowerline.test` });
  const res = await server.api('PUT', '/api/admin/user', { token, lang, body: { id: user.id, sendResetLink: true } });
  expect(res.body.code, JSON.stringify(res.body)).toBe(0);
  return user;
}

describe('email log', () => {
  describe('with a real SMTP server', () => {
    let smtp: SmtpReceiver;
    let server: TestServer;
    let admin: string;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ smtp, server, admin, close } = await startMailingStaffServer());
    });
    afterAll(() => close());

    it('delivers the mail and records it as sent', async () => {
      await mailResetLink(server, admin, 'nora', EN);
      const mail = await smtp.waitFor((m) => m.to.includes('nora@mowerline.test'));
      expect(mail.subject).toBe('Reset your Mowerline password');
      expect(mail.text).toMatch(/Hello Name of nora/);
      const { list, total } = await emailLog(server, admin);
      expect(total).toBe(1);
      expect(list[0]).toEqual({
        id: expect.any(Number),
        to: 'nora@mowerline.test',
        subject: 'Reset your Mowerline password',
        template: 'password-reset',
        status: 'sent',
        error: '',
        createdAt: expect.stringMatching(/^\d{4}-/),
        sentAt: expect.stringMatching(/^\d{4}-/),
      });
    });

    it('writes the mail in the language of the request', async () => {
      await mailResetLink(server, admin, 'otto');
      const mail = await smtp.waitFor((m) => m.to.includes('otto@mowerline.test'));
      expect(mail.subject).toBe('Mowerline 密码重置');
      expect(mail.text).toContain('Name of otto，您好');
    });

    it('invites a colleague added without a password', async () => {
      await addStaff(server, admin, { username: 'pia', email: 'pia@mowerline.test', password: null });
      const mail = await smtp.waitFor((m) => m.to.includes('pia@mowerline.test'));
      expect(mail.subject).toBe('欢迎加入 Mowerline 运营后台');
      expect(mail.text).toContain('pia');
      expect((await emailLog(server, admin, '?template=staff-invite')).list).toMatchObject([{ to: 'pia@mowerline.test', status: 'sent' }]);
    });

    it('filters by recipient, template and status, and validates its query', async () => {
      expect((await emailLog(server, admin, '?recipient=NORA')).list.map((m) => m.to)).toEqual(['nora@mowerline.test']);
      expect((await emailLog(server, admin, '?template=password-reset')).total).toBe(2);
      expect((await emailLog(server, admin, '?status=sent')).total).toBe(3);
      expect((await emailLog(server, admin, '?status=failed')).total).toBe(0);
      const all = (await emailLog(server, admin)).list;
      expect(all.map((m) => m.to)).toEqual(['pia@mowerline.test', 'otto@mowerline.test', 'nora@mowerline.test']);
      const oldest = all[2]!.createdAt;
      expect((await emailLog(server, admin, `?to=${encodeURIComponent(new Date(new Date(oldest).getTime() - 1).toISOString())}`)).total).toBe(0);
      expect((await emailLog(server, admin, `?from=${encodeURIComponent(oldest)}`)).total).toBe(3);
      for (const query of ['?status=lost', '?template=spam', '?pageSize=0', '?subject=x']) {
        const res = await server.api('GET', `/api/admin/system/email-log${query}`, { token: admin });
        expect(res.status, query).toBe(400);
        expect(res.body.code, query).toBe(40000);
      }
    });
  });

  it('records a mail as failed, with the error, when the SMTP server is unreachable', async () => {
    const server = await startStaffServer({ config: { smtpUrl: `smtp://127.0.0.1:${await closedPort()}` } });
    try {
      const admin = await server.login();
      await mailResetLink(server, admin, 'quinn');
      const { list } = await emailLog(server, admin);
      expect(list).toMatchObject([{ to: 'quinn@mowerline.test', template: 'password-reset', status: 'failed', sentAt: null }]);
      expect(list[0]!.error).toMatch(/ECONNREFUSED/);
    } finally {
      await server.close();
    }
  });

  it('without SMTP_URL records the mail as not sent, with the reason', async () => {
    const server = await startStaffServer();
    try {
      const admin = await server.login();
      await mailResetLink(server, admin, 'rosa');
      const { list } = await emailLog(server, admin, '?status=not_sent');
      expect(list).toMatchObject([{ to: 'rosa@mowerline.test', template: 'password-reset', status: 'not_sent', sentAt: null }]);
      expect(list[0]!.error).toMatch(/SMTP_URL is not configured/);
    } finally {
      await server.close();
    }
  });
});
