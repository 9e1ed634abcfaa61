import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { deviceTopics, messageKinds, type Message, type NotifyPrefs, type Page, type UnreadCount } from '@mowerline/contract';
import { messages } from '../../src/messages/messages.sql.ts';
import { staffUsers } from '../../src/staff/staff.sql.ts';
import { systemLogs } from '../../src/system-log/system-log.sql.ts';
import type { TestServer } from '../harness.ts';
import { connectDevice, createModel, EN, operatorToken, registerSn, startDeviceServer, uniqueSn, waitFor, type TestDevice } from '../devices/fixtures.ts';

/**
 * Issue 17, item 4: device faults reach the bell. Each staff member chooses the severities and
 * codes that notify them (critical and major until they choose), and a burst folds into one
 * message per severity ("12 new major events") instead of a flood.
 */
describe('device exception events in the message box', () => {
  let server: TestServer;
  let admin: string;
  let operator: string;
  let device: TestDevice;
  let seq = 0;

  beforeAll(async () => {
    server = await startDeviceServer();
    admin = await server.login();
    operator = await operatorToken(server, admin);
    const modelId = await createModel(server, admin);
    const sn = uniqueSn('NTF');
    const secret = await registerSn(server, admin, sn, modelId);
    device = await connectDevice(server, sn, secret);
  });
  afterAll(async () => {
    await device?.end();
    await server?.close();
  });

  const raise = (code: string, severity: string) =>
    device.publish(deviceTopics.events, { v: 1, id: `n-${device.sn}-${++seq}`, ts: Date.now(), code, severity, message: `${code} happened`, context: {} });
  const notices = async (token: string) => (await server.api<Page<Message>>('GET', '/api/admin/message/list?type=notice', { token, lang: EN })).body.data.list;

  it('answers the defaults (critical and major) until a member chooses, and audits a change', async () => {
    const prefs = await server.api<NotifyPrefs>('GET', '/api/admin/message/preferences', { token: operator });
    expect(prefs.body.data).toEqual({ severities: ['critical', 'major'], codes: [] });
    // The operator wants only minor blade faults.
    const saved = await server.api<NotifyPrefs>('PUT', '/api/admin/message/preferences', { token: operator, body: { severities: ['minor'], codes: ['BLADE_WORN'] } });
    expect(saved.body.data).toEqual({ severities: ['minor'], codes: ['BLADE_WORN'] });
    expect((await server.api<NotifyPrefs>('GET', '/api/admin/message/preferences', { token: operator })).body.data).toEqual(saved.body.data);
    const [audit] = await server.ctx.db.select().from(systemLogs).where(eq(systemLogs.action, 'auth.notifications.update'));
    expect(audit).toMatchObject({ result: 'success', detail: { before: { severities: ['critical', 'major'] }, after: { severities: ['minor'] } } });
    const bad = await server.api('PUT', '/api/admin/message/preferences', { token: operator, body: { severities: ['fatal'], codes: [] } });
    expect(bad.body.code).toBe(40000);
  });

  it('folds a burst of 12 major events into one unread message per member, by their choices', async () => {
    for (let i = 0; i < 12; i++) await raise(`MOTOR_HOT_${i}`, 'major');
    await raise('BLADE_WORN', 'minor');
    await raise('RAIN_DELAY', 'minor');
    const [me] = await server.ctx.db.select().from(staffUsers).where(eq(staffUsers.username, 'admin'));
    const adminId = me!.id;
    await waitFor(async () => {
      const [row] = await server.ctx.db.select().from(messages).where(and(eq(messages.userId, adminId), eq(messages.kind, messageKinds.deviceEvents)));
      return row?.params.count === '12' ? row : undefined;
    }, 15_000, 'the admin message to count 12');
    const mine = await notices(admin);
    const events = mine.filter((m) => m.messageType === messageKinds.deviceEvents);
    // One message for the burst (admins keep the defaults: minor is not on), not twelve.
    expect(events.map((m) => m.title)).toEqual(['12 new major events']);
    expect(events[0]!.content).toMatch(/^Latest: device NTF\w+ reported "MOTOR_HOT_\d+" \(MOTOR_HOT_\d+\)/);
    // The operator chose minor BLADE_WORN only: one message about it, nothing about the majors.
    // The minor events may be written in a later batch than the majors the wait above saw.
    const theirs = await waitFor(async () => {
      const list = (await notices(operator)).filter((m) => m.messageType === messageKinds.deviceEvents);
      return list.length > 0 ? list : undefined;
    }, 15_000, 'the operator message');
    expect(theirs.map((m) => m.title)).toEqual(['1 new minor event']);
    const counts = (await server.api<UnreadCount>('GET', '/api/admin/message/unread-count', { token: operator })).body.data;
    expect(counts.notice).toBe(1);
  });

  it('starts a new message once the folded one is read', async () => {
    const before = (await notices(admin)).filter((m) => m.messageType === messageKinds.deviceEvents);
    await server.api('POST', '/api/admin/message/read', { token: admin, body: { ids: before.map((m) => m.id) } });
    await raise('MOTOR_HOT_X', 'major');
    const after = await waitFor(async () => {
      const list = (await notices(admin)).filter((m) => m.messageType === messageKinds.deviceEvents);
      return list.length === 2 ? list : undefined;
    }, 15_000, 'a second message');
    expect(after.map((m) => [m.title, m.status])).toEqual([
      ['1 new major event', 0],
      ['12 new major events', 1],
    ]);
  });
});
