import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { deviceListQuerySchema, type DevicePage, type DeviceSummary } from '@mowerline/contract';
import { pageQuery } from '../../src/devices/device-list.service.ts';
import type { TestServer } from '../harness.ts';
import { EN, operatorToken, startDeviceServer } from './fixtures.ts';

const N = 100_000;
const states = ['idle', 'mowing', 'returning', 'charging', 'paused', 'error', 'updating'];

/**
 * 100k devices in two statements (INSERT … SELECT generate_series). Device g: model A when g is
 * even, region europe when g % 3 == 0, owner `owner{g % 1000}`, online when g % 4 == 0, state
 * states[g % 7], battery g % 101, firmware 2.0.0 when g % 10 == 0, last seen g seconds ago.
 */
async function seed(server: TestServer) {
  const db = server.ctx.db;
  await db.execute(sql`insert into product_models (id, code, name) values (9001, 'SEED-A', 'Seed A'), (9002, 'SEED-B', 'Seed B')`);
  await db.execute(sql`
    insert into devices (sn, model_id, secret_hash, secret_salt, region, owner, created_at)
    select 'S' || lpad(g::text, 7, '0'), case when g % 2 = 0 then 9001 else 9002 end, 'unused', 'unused',
           case when g % 3 = 0 then 'europe' else 'asia' end, 'owner' || (g % 1000), now() - make_interval(mins => g)
    from generate_series(1, ${N}) g`);
  await db.execute(sql`
    insert into device_state (sn, online, last_seen_at, state, activity, battery, firmware, lat, lng, heading, rssi, blade_rpm)
    select 'S' || lpad(g::text, 7, '0'), g % 4 = 0, now() - make_interval(secs => g),
           (array['idle','mowing','returning','charging','paused','error','updating'])[g % 7 + 1], 'unknown',
           g % 101, case when g % 10 = 0 then '2.0.0' else '1.9.3' end, 48 + (g % 100) / 100.0, 11 + (g % 77) / 100.0, 0, -60, 0
    from generate_series(1, ${N}) g`);
  await db.execute(sql`analyze devices`);
  await db.execute(sql`analyze device_state`);
}

const sn = (g: number) => `S${String(g).padStart(7, '0')}`;
const range = (pred: (g: number) => boolean) => Array.from({ length: N }, (_, i) => i + 1).filter(pred);

describe('device list on 100k devices', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startDeviceServer();
    token = await operatorToken(server, await server.login());
    await seed(server);
  }, 180_000);
  afterAll(() => server.close());

  const list = async (query: string, lang?: string) => {
    const res = await server.api<DevicePage>('GET', `/api/admin/device?${query}`, { token, lang });
    return res;
  };
  const page = async (query: string) => {
    const res = await list(query);
    expect(res.body.code, JSON.stringify(res.body)).toBe(0);
    return res.body.data;
  };

  it('pages in SN order and estimates a large total instead of counting it', async () => {
    const first = await page('pageSize=20');
    expect(first.list.map((d) => d.sn)).toEqual(range((g) => g <= 20).map(sn));
    expect(first.totalExact).toBe(false);
    expect(first.total).toBeGreaterThan(10_000);
    const third = await page('page=3&pageSize=50');
    expect(third.list[0]?.sn).toBe(sn(101));
    expect(third.list).toHaveLength(50);
  });

  it('shows each device with its state, and sentinels as nulls', async () => {
    const [d4] = (await page('sn=S0000004')).list as DeviceSummary[];
    expect(d4).toMatchObject({ sn: 'S0000004', modelCode: 'SEED-A', online: true, state: 'paused', battery: 4, firmware: '1.9.3', region: 'asia', owner: 'owner4' });
    const [d5] = (await page('sn=S0000005')).list;
    expect(d5).toMatchObject({ online: false, state: 'offline', battery: 5 });
  });

  it('counts exactly when the matches are few', async () => {
    // Exactly 10,000 SNs start with S001: still exact.
    expect(await page('sn=S001&pageSize=1')).toMatchObject({ total: 10_000, totalExact: true });
    const owner = await page('owner=owner7&pageSize=100');
    expect(owner).toMatchObject({ total: 100, totalExact: true });
    expect(owner.list.map((d) => d.sn)).toEqual(range((g) => g % 1000 === 7).map(sn));
    // Owners are app e-mails, matched in any case.
    expect((await page('owner=OWNER7&pageSize=100')).list.map((d) => d.sn)).toEqual(owner.list.map((d) => d.sn));
  });

  it('combines filters: model, region, firmware, online, state, last seen', async () => {
    const expectSet = async (query: string, pred: (g: number) => boolean) => {
      const matches = range(pred);
      const data = await page(`${query}&pageSize=100`);
      if (matches.length <= 10_000) expect({ total: data.total, exact: data.totalExact }).toEqual({ total: matches.length, exact: true });
      expect(data.list.map((d) => d.sn)).toEqual(matches.slice(0, 100).map(sn));
    };
    await expectSet('modelId=9001&region=europe&firmware=2.0.0', (g) => g % 2 === 0 && g % 3 === 0 && g % 10 === 0);
    await expectSet('state=error', (g) => g % 4 === 0 && states[g % 7] === 'error');
    await expectSet('state=offline&region=europe&firmware=2.0.0', (g) => g % 4 !== 0 && g % 3 === 0 && g % 10 === 0);
    await expectSet('online=true&owner=owner8', (g) => g % 4 === 0 && g % 1000 === 8);
    // Last seen between 100 and 200 seconds ago, give or take the seconds this test has been running.
    const now = Date.now();
    const from = new Date(now - 200_000 + 30_000).toISOString();
    const to = new Date(now - 100_000).toISOString();
    const seen = await page(`lastSeenFrom=${encodeURIComponent(from)}&lastSeenTo=${encodeURIComponent(to)}&pageSize=100`);
    expect(seen.totalExact).toBe(true);
    for (const d of seen.list) {
      const t = Date.parse(d.lastSeenAt!);
      expect(t >= Date.parse(from) && t <= Date.parse(to)).toBe(true);
    }
  });

  it('sorts by battery and last seen, and a cursor walks the same order as pages', async () => {
    const byOffset = [...(await page('sort=-battery&pageSize=100')).list, ...(await page('sort=-battery&page=2&pageSize=100')).list, ...(await page('sort=-battery&page=3&pageSize=100')).list];
    const walked: DeviceSummary[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 3; i++) {
      const data: DevicePage = await page(`sort=-battery&pageSize=100${cursor ? `&cursor=${cursor}` : ''}`);
      walked.push(...data.list);
      cursor = data.nextCursor;
    }
    expect(walked.map((d) => d.sn)).toEqual(byOffset.map((d) => d.sn));
    // Highest battery first; equal batteries by SN, descending.
    expect(walked[0]).toMatchObject({ battery: 100, sn: sn(range((g) => g % 101 === 100).at(-1)!) });
    for (let i = 1; i < walked.length; i++) {
      const [a, b] = [walked[i - 1]!, walked[i]!];
      expect(a.battery! > b.battery! || (a.battery === b.battery && a.sn > b.sn)).toBe(true);
    }
    const recent = await page('sort=-lastSeenAt&pageSize=3');
    expect(recent.list.map((d) => d.sn)).toEqual([sn(1), sn(2), sn(3)]);
    const createdFirst = await page('sort=createdAt&pageSize=2');
    expect(createdFirst.list.map((d) => d.sn)).toEqual([sn(N), sn(N - 1)]);
  });

  it('refuses a cursor that does not belong to the order, and bad filters', async () => {
    const data = await page('sort=battery&pageSize=5');
    const wrong = await list(`sort=sn&cursor=${data.nextCursor}`, EN);
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ code: 42011, msg: 'Invalid page cursor: start again from the first page' });
    expect((await list('cursor=garbage')).body.msg).toBe('分页游标无效，请从第一页重新查询');
    expect((await list('pageSize=101')).status).toBe(400);
    expect((await list('state=flying')).status).toBe(400);
    expect((await list('sort=secret')).status).toBe(400);
    expect((await list('unknown=1')).status).toBe(400);
  });

  it('walks an SN prefix by cursor, alone and with a state filter, the same as by offset', async () => {
    for (const filter of ['sn=S0001', 'sn=S0001&state=mowing', 'sn=S0001&sort=-sn&online=true']) {
      const byOffset = [...(await page(`${filter}&pageSize=100`)).list, ...(await page(`${filter}&page=2&pageSize=100`)).list];
      const walked: DeviceSummary[] = [];
      let cursor: string | null = null;
      for (let i = 0; i < 2 && (i === 0 || cursor); i++) {
        const data: DevicePage = await page(`${filter}&pageSize=100${cursor ? `&cursor=${cursor}` : ''}`);
        walked.push(...data.list);
        cursor = data.nextCursor;
      }
      expect(walked.map((d) => d.sn), filter).toEqual(byOffset.map((d) => d.sn));
      expect(walked.length, filter).toBeGreaterThan(0);
      for (const d of walked) expect(d.sn.startsWith(new URLSearchParams(filter).get('sn')!), filter).toBe(true);
    }
    const prefixed = await page('sn=S00012&pageSize=100');
    expect(prefixed.total).toBe(100);
    expect(prefixed.list.map((d) => d.sn)).toEqual(range((g) => sn(g).startsWith('S00012')).slice(0, 100).map(sn));
    expect((await page('sn=S00012&state=mowing&pageSize=100')).list.every((d) => d.state === 'mowing')).toBe(true);
  });

  it('reads each page and count through indexes, never a scan of the whole table', async () => {
    const db = server.ctx.db;
    const explain = async (q: { toSQL(): { sql: string; params: unknown[] } }) => {
      const { sql: text, params } = q.toSQL();
      const client = (db as unknown as { $client: { query(t: string, p: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }> } }).$client;
      const result = await client.query(`explain ${text}`, params);
      return result.rows.map((r) => Object.values(r)[0]).join('\n');
    };
    const first = await page('sn=S0005&pageSize=20');
    for (const query of [
      'pageSize=20',
      'page=4001&pageSize=20',
      `sn=S0005&pageSize=20&cursor=${first.nextCursor}`,
      'sn=S00123&pageSize=20',
      'sn=S0001&state=mowing&pageSize=20',
      'sort=-battery&pageSize=20',
      'owner=owner5&pageSize=20',
      'firmware=2.0.0&sort=lastSeenAt&pageSize=20',
    ]) {
      const q = deviceListQuerySchema.parse(Object.fromEntries(new URLSearchParams(query)));
      const text = await explain(pageQuery(db, q, q.pageSize, q.cursor ? { cursor: q.cursor } : { offset: (q.page - 1) * q.pageSize }));
      expect(text, query).not.toMatch(/Seq Scan on (devices|device_state)/);
      if (query.startsWith('owner=')) expect(text, query).toMatch(/devices_owner_lower_sn/);
    }
  });

  it('streams the filtered list as CSV, 100k rows', async () => {
    const res = await fetch(`${server.url}/api/admin/device/export?sort=sn`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="devices-\d{14}\.csv"$/);
    // Read it as a stream, line by line, without holding the file.
    const reader = res.body!.pipeThrough(new TextDecoderStream('utf-8', { ignoreBOM: true })).getReader();
    let lines = 0;
    let rest = '';
    let header = '';
    let second = '';
    let last = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      const parts = (rest + value).split('\r\n');
      rest = parts.pop()!;
      for (const line of parts) {
        if (lines === 0) header = line;
        if (lines === 1) second = line;
        last = line;
        lines++;
      }
    }
    expect(lines).toBe(N + 1);
    expect(header).toBe('\ufeffsn,model,state,online,battery,firmware,lastSeenAt,region,owner,lat,lng,activity,errorCode,rssi,enabled,createdAt,tags');
    expect(second.startsWith('S0000001,SEED-B,offline,false,1,1.9.3,')).toBe(true);
    expect(last.startsWith(`${sn(N)},SEED-A,`)).toBe(true);
    const filtered = await (await fetch(`${server.url}/api/admin/device/export?owner=owner7`, { headers: { authorization: `Bearer ${token}` } })).text();
    expect(filtered.trim().split('\r\n')).toHaveLength(101);
  });
});
