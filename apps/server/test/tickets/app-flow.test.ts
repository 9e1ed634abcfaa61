import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errors, messageKinds, type AppTicketDetail, type NotifyStats, type TicketDetail, type TicketPage } from '@mowerline/contract';
import { deviceEvents, deviceState } from '../../src/devices/devices.sql.ts';
import { userLogs } from '../../src/end-users/end-users.sql.ts';
import { messages } from '../../src/messages/messages.sql.ts';
import { systemLogs } from '../../src/system-log/system-log.sql.ts';
import { tickets } from '../../src/tickets/tickets.sql.ts';
import type { TestServer } from '../harness.ts';
import { startSmtpReceiver, type SmtpReceiver } from '../smtp.ts';
import { confirmedAppUser, EN, ZH } from '../end-users/fixtures.ts';
import { ownerWithMower, startTicketServer } from './fixtures.ts';

const HOUR = 3_600_000;
const SCRIPT = '<script>alert("x")</script><img src=x onerror=alert(1)>';

// Many calls per test: generous timeouts for a loaded machine (no assertion depends on time taken).
describe('feedback tickets: the app flow, the staff workflow, SLA, merge, bulk and export', { timeout: 240_000 }, () => {
  let smtp: SmtpReceiver;
  let env: Awaited<ReturnType<typeof startTicketServer>>;
  let server: TestServer;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    env = await startTicketServer(smtp);
    server = env.server;
  });
  afterAll(async () => {
    await env?.close();
    await smtp?.close();
  });

  async function file(token: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
    const res = await server.api<AppTicketDetail>('POST', '/api/app/v1/feedback', { token, body, headers });
    if (res.body.code !== 0) throw new Error(JSON.stringify(res.body));
    return res.body.data;
  }
  const staffDetail = async (id: number, token = env.operator) => (await server.api<TicketDetail>('GET', `/api/admin/ticket/${id}`, { token })).body.data;

  it('files with device context from the app headers, reaches staff, and threads replies; notes never reach the app', async () => {
    const ann = await ownerWithMower(server, env.admin, 'Ann');
    await server.ctx.db.update(deviceState).set({ online: true, state: 'error', battery: 41, firmware: '2.4.1' }).where(eq(deviceState.sn, ann.sn));
    const at = new Date();
    await server.ctx.db.insert(deviceEvents).values({ sn: ann.sn, code: 'E_BLADE_STUCK', severity: 'critical', message: 'blade blocked', firstAt: at, lastAt: at });

    const created = await file(ann.token, { category: 'device', title: `Blade ${SCRIPT}`, description: `It stopped. ${SCRIPT}`, sn: ann.sn }, { 'x-app-version': '3.2.0 (412)', 'x-app-os': 'iOS 18.1' });
    expect(created).toMatchObject({ status: 'new', category: 'device', sn: ann.sn, appVersion: '3.2.0 (412)', os: 'iOS 18.1', canRate: false, canReopen: false, entries: [] });
    // HTML is text: stored and answered exactly as typed.
    expect(created.title).toBe(`Blade ${SCRIPT}`);
    expect(created.number).toBeGreaterThanOrEqual(100001);

    const staff = await staffDetail(created.id);
    expect(staff.device).toMatchObject({ sn: ann.sn, online: true, battery: 41, firmware: '2.4.1', events: [expect.objectContaining({ code: 'E_BLADE_STUCK', severity: 'critical' })] });
    expect(staff.user).toMatchObject({ id: ann.id, email: ann.email });
    expect(staff.slaFirstResponseDue).toBe(new Date(Date.parse(staff.createdAt) + 8 * HOUR).toISOString());
    expect(staff.slaResolutionDue).toBe(new Date(Date.parse(staff.createdAt) + 72 * HOUR).toISOString());

    // The message box of every staff member (the operator role too) tells of the new ticket.
    const notes = await server.ctx.db.select().from(messages).where(eq(messages.kind, messageKinds.ticketNew));
    expect(notes.length).toBeGreaterThanOrEqual(2);
    expect(notes[0]!.params).toMatchObject({ number: String(created.number) });

    // A note, then a public reply: the first response stops its clock and opens the ticket.
    const SECRET = 'internal: customer is on the refund watchlist';
    expect((await server.api('POST', `/api/admin/ticket/${created.id}/reply`, { token: env.operator, body: { body: SECRET, internal: true } })).body.code).toBe(0);
    expect((await staffDetail(created.id)).status).toBe('new');
    const replied = await server.api<TicketDetail>('POST', `/api/admin/ticket/${created.id}/reply`, { token: env.operator, body: { body: 'Please clean the blade.', status: 'pending_customer' } });
    expect(replied.body.data).toMatchObject({ status: 'pending_customer', slaPaused: true, slaFirstResponseDue: null });
    expect(replied.body.data.entries.map((e) => [e.kind, e.internal])).toEqual([
      ['agent', true],
      ['agent', false],
    ]);

    // Every app answer: no note, no trace of it.
    const answers = [
      await server.api('GET', `/api/app/v1/feedback/${created.id}`, { token: ann.token }),
      await server.api('GET', '/api/app/v1/feedback', { token: ann.token }),
      await server.api('POST', `/api/app/v1/feedback/${created.id}/reply`, { token: ann.token, body: { body: 'Done, still stuck.' } }),
    ];
    for (const a of answers) {
      expect(a.body.code).toBe(0);
      expect(JSON.stringify(a.body)).not.toContain('refund watchlist');
      expect(JSON.stringify(a.body)).not.toContain('"internal"');
    }
    const thread = answers[2]!.body.data as AppTicketDetail;
    expect(thread.status).toBe('open');
    expect(thread.entries.map((e) => [e.kind, e.body])).toEqual([
      ['agent', 'Please clean the blade.'],
      ['customer', 'Done, still stuck.'],
    ]);
    expect(thread.entries[0]!.authorName).toBe('Operator');

    // Resolve → rate → the reopen window.
    await server.api('PUT', `/api/admin/ticket/${created.id}`, { token: env.operator, body: { status: 'resolved' } });
    const rated = await server.api<AppTicketDetail>('POST', `/api/app/v1/feedback/${created.id}/rating`, { token: ann.token, body: { score: 4, comment: 'quick' } });
    expect(rated.body.data).toMatchObject({ status: 'resolved', rating: { score: 4, comment: 'quick' }, canReopen: true });
    const reopened = await server.api<AppTicketDetail>('POST', `/api/app/v1/feedback/${created.id}/reopen`, { token: ann.token, body: { reason: 'It happened again' } });
    expect(reopened.body.data.status).toBe('open');
    await server.api('PUT', `/api/admin/ticket/${created.id}`, { token: env.operator, body: { status: 'resolved' } });
    await server.ctx.db.update(tickets).set({ resolvedAt: new Date(Date.now() - 15 * 24 * HOUR) }).where(eq(tickets.id, created.id));
    for (const lang of [EN, ZH] as const) {
      const late = await server.api('POST', `/api/app/v1/feedback/${created.id}/reply`, { token: ann.token, body: { body: 'again' }, lang });
      expect(late.body).toMatchObject({ code: errors.TICKET_REOPEN_EXPIRED.code, msg: errors.TICKET_REOPEN_EXPIRED[lang].replace('{days}', '14') });
    }
    expect((await server.api('POST', `/api/app/v1/feedback/${created.id}/reopen`, { token: ann.token, body: {} })).body.code).toBe(errors.TICKET_REOPEN_EXPIRED.code);

    // Closed: no reply from either side.
    await server.api('PUT', `/api/admin/ticket/${created.id}`, { token: env.operator, body: { status: 'closed' } });
    expect((await server.api('POST', `/api/app/v1/feedback/${created.id}/reply`, { token: ann.token, body: { body: 'hello?' } })).body.code).toBe(errors.TICKET_CLOSED.code);
    expect((await server.api('POST', `/api/admin/ticket/${created.id}/reply`, { token: env.operator, body: { body: 'hello' } })).body.code).toBe(errors.TICKET_CLOSED.code);

    const final = await staffDetail(created.id);
    expect(final.history.map((h) => [h.field, h.to])).toEqual(
      expect.arrayContaining([
        ['status', 'pending_customer'],
        ['status', 'open'],
        ['status', 'resolved'],
        ['rating', '4'],
        ['reopen', 'open'],
        ['status', 'closed'],
      ]),
    );
    // Staff changes are audited.
    const audit = await server.ctx.db.select().from(systemLogs).where(eq(systemLogs.targetType, 'ticket'));
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['ticket.reply', 'ticket.update']));
    // The customer's own steps are in the user log, a refused one as a failure.
    const log = await server.ctx.db.select().from(userLogs).where(eq(userLogs.userId, ann.id));
    const feedback = log.filter((l) => l.action.startsWith('feedback.')).map((l) => [l.action, l.result]);
    expect(feedback).toEqual(
      expect.arrayContaining([
        ['feedback.create', 'success'],
        ['feedback.reply', 'success'],
        ['feedback.rate', 'success'],
        ['feedback.reopen', 'success'],
        ['feedback.reply', 'failure'],
      ]),
    );
    expect(log.find((l) => l.action === 'feedback.create')).toMatchObject({ sn: ann.sn, detail: { category: 'device', ticket: created.number } });
  });

  it('answers another user’s ticket with 404 on every app route, and a mower of someone else is refused', async () => {
    const ann = await ownerWithMower(server, env.admin, 'Ann');
    const eve = await confirmedAppUser(server, env.admin, { name: 'Eve' });
    const t = await file(ann.token, { category: 'app', title: 'Sync', description: 'The map does not sync' });
    await server.api('PUT', `/api/admin/ticket/${t.id}`, { token: env.operator, body: { status: 'resolved' } });
    const calls: Array<[string, string, unknown?]> = [
      ['GET', `/api/app/v1/feedback/${t.id}`],
      ['POST', `/api/app/v1/feedback/${t.id}/reply`, { body: 'mine now' }],
      ['POST', `/api/app/v1/feedback/${t.id}/rating`, { score: 1, comment: '' }],
      ['POST', `/api/app/v1/feedback/${t.id}/reopen`, {}],
    ];
    for (const [method, url, body] of calls) {
      const res = await server.api(method, url, { token: eve.token, body });
      expect(res.status, url).toBe(404);
      expect(res.body.code, url).toBe(errors.TICKET_NOT_FOUND.code);
    }
    const file404 = await fetch(`${server.url}/api/app/v1/feedback/${t.id}/attachment/1`, { headers: { authorization: `Bearer ${eve.token}` } });
    expect(file404.status).toBe(404);
    expect(((await server.api('GET', '/api/app/v1/feedback', { token: eve.token })).body.data as { total: number }).total).toBe(0);
    const foreignMower = await server.api('POST', '/api/app/v1/feedback', { token: eve.token, body: { category: 'device', title: 'x', description: 'y', sn: ann.sn } });
    expect(foreignMower.body.code).toBe(errors.APP_DEVICE_NOT_FOUND.code);
    // Nothing of Eve's attempts changed Ann's ticket.
    expect((await staffDetail(t.id)).entries).toEqual([]);
  });

  it('pauses the SLA while pending the customer and shifts the due times by the pause', async () => {
    const ann = await ownerWithMower(server, env.admin);
    const t = await file(ann.token, { category: 'account', title: 'Login', description: 'Cannot sign in' });
    await server.api('PUT', `/api/admin/ticket/${t.id}`, { token: env.operator, body: { priority: 'urgent' } });
    let d = await staffDetail(t.id);
    const created = Date.parse(d.createdAt);
    expect([Date.parse(d.slaFirstResponseDue!), Date.parse(d.slaResolutionDue!)]).toEqual([created + HOUR, created + 8 * HOUR]);

    await server.api('PUT', `/api/admin/ticket/${t.id}`, { token: env.operator, body: { status: 'pending_customer' } });
    d = await staffDetail(t.id);
    expect(d.slaPaused).toBe(true);
    // The pause began two hours ago (moved back in the database rather than waited for).
    await server.ctx.db.update(tickets).set({ slaPausedAt: new Date(Date.now() - 2 * HOUR) }).where(eq(tickets.id, t.id));
    await server.api('POST', `/api/app/v1/feedback/${t.id}/reply`, { token: ann.token, body: { body: 'Here is the info' } });
    d = await staffDetail(t.id);
    expect(d).toMatchObject({ status: 'open', slaPaused: false, slaBreached: false });
    const shift = Date.parse(d.slaResolutionDue!) - (created + 8 * HOUR);
    expect(shift).toBeGreaterThanOrEqual(2 * HOUR);
    expect(shift).toBeLessThan(2 * HOUR + 10 * 60_000);
    expect(Date.parse(d.slaFirstResponseDue!) - (created + HOUR)).toBe(shift);

    // Past its due time while running: breached, in the "breaching" view and the dashboard count.
    await server.ctx.db.update(tickets).set({ firstResponseDue: new Date(Date.now() - 60_000) }).where(eq(tickets.id, t.id));
    const breaching = await server.api<TicketPage>('GET', '/api/admin/ticket?view=breaching', { token: env.operator });
    expect(breaching.body.data.list.map((x) => x.id)).toContain(t.id);
    expect(breaching.body.data.list.find((x) => x.id === t.id)?.slaBreached).toBe(true);
    const flagged = await server.api<TicketPage>('GET', '/api/admin/ticket?slaBreached=true', { token: env.operator });
    expect(flagged.body.data.list.map((x) => x.id)).toContain(t.id);
    // The workplace's attention list counts exactly what the breaching view lists.
    const notify = await server.api<NotifyStats>('GET', '/api/admin/statistics/notify', { token: env.operator });
    const breachingItem = notify.body.data.list.find((item) => item.key === 'slaBreachedTickets');
    expect(breachingItem).toMatchObject({ count: breaching.body.data.total, link: '/ticket/list?view=breaching' });
  });

  it('lists with filters and keyword, assigns and closes in bulk, merges, exports CSV', async () => {
    const ann = await ownerWithMower(server, env.admin, 'Ann');
    const a = await file(ann.token, { category: 'device', title: 'Rain sensor', description: 'mower ignores the zebrafinch rain sensor', sn: ann.sn });
    const b = await file(ann.token, { category: 'device', title: 'Rain again', description: 'still wet grass cut' });
    const c = await file(ann.token, { category: 'suggestion', title: 'Dark mode', description: 'please' });

    const kw = await server.api<TicketPage>('GET', '/api/admin/ticket?keyword=zebrafinch', { token: env.operator });
    expect(kw.body.data.list.map((x) => x.id)).toEqual([a.id]);
    const byNumber = await server.api<TicketPage>('GET', `/api/admin/ticket?keyword=%23${c.number}`, { token: env.operator });
    expect(byNumber.body.data.list.map((x) => x.id)).toEqual([c.id]);
    const bySn = await server.api<TicketPage>('GET', `/api/admin/ticket?sn=${ann.sn}`, { token: env.operator });
    expect(bySn.body.data.list.map((x) => x.id)).toEqual([a.id]);
    const cat = await server.api<TicketPage>(`GET`, `/api/admin/ticket?category=suggestion&userId=${ann.id}`, { token: env.operator });
    expect(cat.body.data.list.map((x) => x.id)).toEqual([c.id]);

    // Paging by cursor returns each ticket once.
    const seen: number[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page: TicketPage = (await server.api<TicketPage>('GET', `/api/admin/ticket?userId=${ann.id}&pageSize=1${cursor ? `&cursor=${cursor}` : ''}`, { token: env.operator })).body.data;
      seen.push(...page.list.map((x) => x.id));
      cursor = page.nextCursor;
    }
    expect(seen).toEqual([c.id, b.id, a.id]);

    const assignees = await server.api<Array<{ id: number; role: string }>>('GET', '/api/admin/ticket/assignees', { token: env.operator });
    const op = assignees.body.data.find((s) => s.role === 'user')!;
    const bulk = await server.api<{ updated: number[]; skipped: number[] }>('POST', '/api/admin/ticket/bulk', { token: env.operator, body: { action: 'assign', ids: [a.id, b.id, 2_000_000], assigneeId: op.id } });
    expect(bulk.body.data).toEqual({ updated: [a.id, b.id].sort((x, y) => x - y), skipped: [2_000_000] });
    const mine = await server.api<TicketPage>('GET', '/api/admin/ticket?view=mine', { token: env.operator });
    expect(mine.body.data.list.map((x) => x.id).sort()).toEqual([a.id, b.id].sort());
    expect(mine.body.data.list[0]!.assignee).toEqual({ id: op.id, name: 'Operator' });
    const unassigned = await server.api<TicketPage>(`GET`, `/api/admin/ticket?view=unassigned&userId=${ann.id}`, { token: env.operator });
    expect(unassigned.body.data.list.map((x) => x.id)).toEqual([c.id]);

    // Merge b into a: b closes, its description and thread move, both say so.
    await server.api('POST', `/api/app/v1/feedback/${b.id}/reply`, { token: ann.token, body: { body: 'photo attached later' } });
    expect((await server.api('POST', `/api/admin/ticket/${b.id}/merge`, { token: env.operator, body: { intoId: b.id } })).body.code).toBe(errors.TICKET_MERGE_SELF.code);
    const eve = await confirmedAppUser(server, env.admin, { name: 'Eve' });
    const e = await file(eve.token, { category: 'other', title: 'Other user', description: 'x' });
    expect((await server.api('POST', `/api/admin/ticket/${b.id}/merge`, { token: env.operator, body: { intoId: e.id } })).body.code).toBe(errors.TICKET_MERGE_OTHER_USER.code);
    const merged = await server.api<TicketDetail>('POST', `/api/admin/ticket/${b.id}/merge`, { token: env.operator, body: { intoId: a.id } });
    expect(merged.body.data.id).toBe(a.id);
    expect(merged.body.data.mergedFrom).toEqual([b.number]);
    expect(merged.body.data.entries.map((x) => [x.kind, x.mergedFromNumber])).toEqual(
      expect.arrayContaining([
        ['customer', b.number],
        ['system', null],
      ]),
    );
    expect(merged.body.data.entries.some((x) => x.body === 'photo attached later')).toBe(true);
    const source = await staffDetail(b.id);
    expect(source).toMatchObject({ status: 'closed', mergedIntoId: a.id, entries: [expect.objectContaining({ kind: 'system' })] });
    expect((await server.api('POST', `/api/admin/ticket/${c.id}/merge`, { token: env.operator, body: { intoId: b.id } })).body.code).toBe(errors.TICKET_MERGE_TARGET.code);
    const appSide = await server.api<AppTicketDetail>('GET', `/api/app/v1/feedback/${b.id}`, { token: ann.token });
    expect(appSide.body.data).toMatchObject({ status: 'closed', mergedIntoId: a.id });
    // The merged thread is searchable from its new home.
    const kw2 = await server.api<TicketPage>('GET', '/api/admin/ticket?keyword=wet%20grass', { token: env.operator });
    expect(kw2.body.data.list.map((x) => x.id)).toContain(a.id);

    const closed = await server.api<{ updated: number[]; skipped: number[] }>('POST', '/api/admin/ticket/bulk', { token: env.operator, body: { action: 'close', ids: [a.id, b.id, c.id] } });
    expect(closed.body.data).toEqual({ updated: [a.id, c.id].sort((x, y) => x - y), skipped: [b.id] });

    // The CSV export (admins: it names users), with formula-looking text defused.
    const csv = await fetch(`${server.url}/api/admin/ticket/export?userId=${ann.id}`, { headers: { authorization: `Bearer ${env.admin}` } });
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines[0]).toContain('number,title,category,status');
    expect(lines).toHaveLength(4);
    expect(lines.some((l) => l.startsWith(`${a.number},Rain sensor,device,closed`))).toBe(true);
    expect((await fetch(`${server.url}/api/admin/ticket/export`, { headers: { authorization: `Bearer ${env.operator}` } })).status).toBe(403);
  });

  it('keeps SLA targets configurable (admins), and new tickets take them', async () => {
    const sla = await server.api<{ targets: Array<{ priority: string; firstResponseMinutes: number; resolutionMinutes: number }> }>('GET', '/api/admin/ticket/sla', { token: env.operator });
    expect(sla.body.data.targets.find((t) => t.priority === 'normal')).toEqual({ priority: 'normal', firstResponseMinutes: 480, resolutionMinutes: 4320 });
    const targets = sla.body.data.targets.map((t) => (t.priority === 'normal' ? { ...t, firstResponseMinutes: 30 } : t));
    expect((await server.api('PUT', '/api/admin/ticket/sla', { token: env.operator, body: { targets } })).status).toBe(403);
    expect((await server.api('PUT', '/api/admin/ticket/sla', { token: env.admin, body: { targets } })).body.code).toBe(0);
    const ann = await ownerWithMower(server, env.admin);
    const t = await file(ann.token, { category: 'other', title: 'SLA', description: 'new targets' });
    const d = await staffDetail(t.id);
    expect(Date.parse(d.slaFirstResponseDue!) - Date.parse(d.createdAt)).toBe(30 * 60_000);
  });
});
