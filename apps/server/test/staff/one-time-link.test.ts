import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { StaffWriteResult } from '@mowerline/contract';
import { systemLogs } from '../../src/system-log/system-log.sql.ts';
import type { TestServer } from '../harness.ts';
import { addStaff, startMailingStaffServer, startStaffServer } from './fixtures.ts';

const NEW_PASSWORD = 'Fresh&Gr4ss!pw';

/**
 * Issue 17, item 3: an invitation or an admin-started reset says whether it was mailed. With mail
 * off the admin gets the one-time link, once, to hand over; the system log records that it was
 * shown, never the link.
 */
describe('invitation and reset links tell whether they were mailed', () => {
  describe('mail off (no SMTP_URL)', () => {
    let server: TestServer;
    let admin: string;
    beforeAll(async () => {
      server = await startStaffServer();
      admin = await server.login();
    });
    afterAll(() => server.close());

    async function auditOf(action: string, targetName: string) {
      const rows = await server.ctx.db.select().from(systemLogs).where(and(eq(systemLogs.action, action), eq(systemLogs.targetName, targetName)));
      expect(rows).toHaveLength(1);
      return rows[0]!;
    }

    it('answers an invitation with mail "not_sent" and a working one-time link, logged without the link', async () => {
      const res = await server.api<StaffWriteResult>('POST', '/api/admin/user', {
        token: admin,
        body: { username: 'nora', name: 'Nora North', email: 'nora@mowerline.test', role: 'user' },
      });
      expect(res.body.code).toBe(0);
      const link = res.body.data.resetLink!;
      expect(link).toMatchObject({ mail: 'not_sent', link: expect.stringMatching(/\/#\/reset-password\?token=[\w-]{40,}$/) });
      const token = new URL(link.link!.replace('/#/', '/')).searchParams.get('token')!;

      const audit = await auditOf('staff.create', 'nora');
      expect(audit.detail).toMatchObject({ invited: true, mail: 'not_sent', linkShownToAdmin: true });
      expect(JSON.stringify(audit)).not.toContain(token);

      // The link is the real thing: Nora chooses her password with it, once.
      const used = await server.api('POST', '/api/admin/user/reset-password', { body: { token, newPassword: NEW_PASSWORD } });
      expect(used.body.code).toBe(0);
      await server.login('nora', NEW_PASSWORD);
      const again = await server.api('POST', '/api/admin/user/reset-password', { body: { token, newPassword: NEW_PASSWORD } });
      expect(again.body.code).toBe(41009);
    });

    it('answers an admin-started reset with the link too, and nothing when a password is set directly', async () => {
      const otto = await addStaff(server, admin, { username: 'otto' });
      const res = await server.api<StaffWriteResult>('PUT', '/api/admin/user', { token: admin, body: { id: otto.id, sendResetLink: true } });
      expect(res.body.data.resetLink).toMatchObject({ mail: 'not_sent', link: expect.stringContaining('/#/reset-password?token=') });
      const token = res.body.data.resetLink!.link!.split('token=')[1]!;
      const audit = await auditOf('staff.password.reset', 'otto');
      expect(audit.detail).toMatchObject({ method: 'link', mail: 'not_sent', linkShownToAdmin: true });
      expect(JSON.stringify(audit)).not.toContain(token);
      expect((await server.api('POST', '/api/admin/user/reset-password', { body: { token, newPassword: NEW_PASSWORD } })).body.code).toBe(0);

      const set = await server.api<StaffWriteResult>('PUT', '/api/admin/user', { token: admin, body: { id: otto.id, password: 'An0ther&Gr4ss' } });
      expect(set.body.data.resetLink).toBeUndefined();
    });
  });

  describe('mail on', () => {
    let ctx: Awaited<ReturnType<typeof startMailingStaffServer>>;
    beforeAll(async () => {
      ctx = await startMailingStaffServer();
    });
    afterAll(() => ctx.close());

    it('says "sent" and keeps the link out of the answer: it is in the mailbox it was meant for', async () => {
      const res = await ctx.server.api<StaffWriteResult>('POST', '/api/admin/user', {
        token: ctx.admin,
        body: { username: 'pia', name: 'Pia Post', email: 'pia@mowerline.test', role: 'user' },
      });
      expect(res.body.data.resetLink).toMatchObject({ mail: 'sent', link: null });
      const mail = await ctx.smtp.waitFor((m) => m.to.includes('pia@mowerline.test'));
      expect(mail.text).toContain('/#/reset-password?token=');
    });
  });
});
