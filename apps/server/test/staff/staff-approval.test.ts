import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmailLog, Message, Page, StaffUser, SystemLog } from '@mowerline/contract';
import { ADMIN, type TestServer } from '../harness.ts';
import type { SmtpReceiver } from '../smtp.ts';
import { EN, STAFF_PASSWORD, startMailingStaffServer } from './fixtures.ts';

describe('account requests: approve or turn down', () => {
  let smtp: SmtpReceiver;
  let server: TestServer;
  let admin: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ smtp, server, admin, close } = await startMailingStaffServer());
  });
  afterAll(() => close());

  const request = async (username: string) => {
    const res = await server.api<{ id: number; status: string }>('POST', '/api/admin/user/register', {
      body: { username, name: `Name of ${username}`, email: `${username}@mowerline.test`, password: STAFF_PASSWORD, reason: 'I run the Berlin depot' },
    });
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ code: 0, data: { status: 'pending' } });
    return res.body.data.id;
  };
  const signIn = (username: string) =>
    server.api('POST', '/api/admin/user/login', { lang: EN, body: { username, password: STAFF_PASSWORD } });

  it('a pending request is listed with its reason and cannot sign in', async () => {
    const id = await request('pat');
    const pending = await server.api<Page<StaffUser>>('GET', '/api/admin/user?status=pending', { token: admin });
    expect(pending.body.data).toMatchObject({ total: 1, list: [{ id, username: 'pat', status: 'pending', role: 'user', requestReason: 'I run the Berlin depot' }] });
    expect((await signIn('pat')).body).toMatchObject({ code: 41005, msg: 'The account is waiting for an administrator to approve it' });
  });

  it('approving activates it, mails the requester, tells the admins and is audited as staff.approve', async () => {
    const [pat] = (await server.api<Page<StaffUser>>('GET', '/api/admin/user?keyword=pat', { token: admin })).body.data.list;
    const res = await server.api<StaffUser>('PUT', '/api/admin/user', { token: admin, lang: EN, body: { id: pat!.id, status: 'active' } });
    expect(res.body.data).toMatchObject({ username: 'pat', status: 'active' });

    const mail = await smtp.waitFor((m) => m.to.includes('pat@mowerline.test'));
    expect(mail.subject).toBe('Your Mowerline account is approved');
    expect(mail.text).toContain(`${server.config.publicUrl}/#/login`);
    const log = await server.api<Page<EmailLog>>('GET', '/api/admin/system/email-log?template=account-approved', { token: admin });
    expect(log.body.data.list).toMatchObject([{ to: 'pat@mowerline.test', status: 'sent' }]);

    const audit = await server.api<Page<SystemLog>>('GET', '/api/admin/system/log?action=staff.approve', { token: admin });
    expect(audit.body.data.list).toMatchObject([
      { actorName: ADMIN.username, targetType: 'staff', targetId: String(pat!.id), targetName: 'pat', result: 'success', detail: { changes: { status: { from: 'pending', to: 'active' } } } },
    ]);

    const box = await server.api<Page<Message>>('GET', '/api/admin/message/list?type=notice', { token: admin, lang: EN });
    expect(box.body.data.list[0]).toMatchObject({ title: 'Account request approved', content: 'admin approved the account request of pat.', messageType: 4, status: 0 });
    expect((await signIn('pat')).body.code).toBe(0);
  });

  it('turning a request down disables it: still no sign-in', async () => {
    const id = await request('quentin');
    const res = await server.api<StaffUser>('PUT', '/api/admin/user', { token: admin, body: { id, status: 'disabled' } });
    expect(res.body.data.status).toBe('disabled');
    expect((await signIn('quentin')).body.code).toBe(41006);
    const audit = await server.api<Page<SystemLog>>('GET', '/api/admin/system/log?action=staff.update', { token: admin });
    expect(audit.body.data.list[0]).toMatchObject({ targetName: 'quentin', detail: { changes: { status: { from: 'pending', to: 'disabled' } } } });
  });
});
