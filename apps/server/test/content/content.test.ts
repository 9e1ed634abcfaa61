import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { sql } from 'drizzle-orm';
import type { AppContentDetail, ContentDataPoint, ContentFile, ContentItem, NotifyStats, Page, PopularItem } from '@mowerline/contract';
import { startServer, type TestServer } from '../harness.ts';
import { confirmedAppUser } from '../end-users/fixtures.ts';
import { operatorToken } from '../devices/fixtures.ts';
import { recordOpen } from '../../src/content/app-content.service.ts';
import { increase } from '../../src/content/content-statistics.service.ts';
import { staffUsers } from '../../src/staff/staff.sql.ts';

const DAY = 86_400_000;
const article = (en: string, zh = `${en}（中文）`) => ({
  type: 'text' as const,
  title: { 'zh-CN': zh, 'en-US': en },
  body: { 'zh-CN': '## 中文正文', 'en-US': '## English body' },
});

describe('app content: publishing, opens, popular lists, content data, notify', () => {
  let dataDir: string;
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'mowerline-content-'));
    server = await startServer({ config: { dataDir } });
    admin = await server.login();
  });
  afterAll(async () => {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const ok = async <T>(res: Promise<{ body: { code: number; data: T } }>) => {
    const { body } = await res;
    expect(body.code, JSON.stringify(body)).toBe(0);
    return body.data;
  };
  const create = (body: object) => ok(server.api<ContentItem>('POST', '/api/admin/content', { token: admin, body }));
  const publish = (id: number) => ok(server.api<ContentItem>('PUT', `/api/admin/content/item/${id}/state`, { token: admin, body: { state: 'published' } }));
  const upload = async (kind: 'image' | 'video', bytes: Buffer, name: string) => {
    const form = new FormData();
    form.set('kind', kind);
    form.set('file', new Blob([new Uint8Array(bytes)]), name);
    const res = await fetch(`${server.url}/api/admin/content/file`, { method: 'POST', headers: { authorization: `Bearer ${admin}` }, body: form });
    return { status: res.status, body: (await res.json()) as { code: number; data: ContentFile } };
  };
  const storedFiles = async () => {
    const list = async (dir: string) => (await readdir(path.join(dataDir, 'files', dir)).catch(() => [] as string[])).map((f) => `${dir}/${f}`);
    return [...(await list('content')), ...(await list('tmp'))];
  };

  it('publishes an article the app lists in the user language and opens once per user per day', async () => {
    const draft = await create(article('Winter storage'));
    expect(draft.state).toBe('draft');
    const zhUser = await confirmedAppUser(server, admin, { locale: 'zh-CN' });
    const enUser = await confirmedAppUser(server, admin, { locale: 'en-US' });
    const before = await ok(server.api<Page<{ id: number }>>('GET', '/api/app/v1/content', { token: enUser.token }));
    expect(before.list.map((i) => i.id)).not.toContain(draft.id);
    expect((await server.api('GET', `/api/app/v1/content/${draft.id}`, { token: enUser.token })).status).toBe(404);

    await publish(draft.id);
    const zhList = await ok(server.api<Page<{ id: number; title: string }>>('GET', '/api/app/v1/content?type=text', { token: zhUser.token }));
    expect(zhList.list.find((i) => i.id === draft.id)?.title).toBe('Winter storage（中文）');
    const opened = await ok(server.api<AppContentDetail>('GET', `/api/app/v1/content/${draft.id}`, { token: enUser.token }));
    expect(opened).toMatchObject({ id: draft.id, title: 'Winter storage', body: '## English body' });
    // De-duplication: the same user again today counts nothing; another user counts.
    await ok(server.api('GET', `/api/app/v1/content/${draft.id}`, { token: enUser.token }));
    await ok(server.api('GET', `/api/app/v1/content/${draft.id}`, { token: zhUser.token }));
    const item = await ok(server.api<ContentItem>('GET', `/api/admin/content/item/${draft.id}`, { token: admin }));
    expect(item.opens).toBe(2);
    const views = await server.ctx.db.execute(sql`select count(*)::int as n from content_views where content_id = ${draft.id}`);
    expect((views as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(2);
    // A later day is a new view.
    expect(await recordOpen(server.ctx.db, draft.id, enUser.id, new Date(Date.now() + DAY))).toBe(true);
    expect(await recordOpen(server.ctx.db, draft.id, enUser.id, new Date(Date.now() + DAY))).toBe(false);
  });

  it('limits content to the models of the user mowers when it names models', async () => {
    const model = await ok(server.api<{ id: number; code: string }>('POST', '/api/admin/product/model', { token: admin, body: { code: 'CT900', name: 'Content 900' } }));
    const targeted = await create({ ...article('Only for CT900'), models: [model.code] });
    await publish(targeted.id);
    const user = await confirmedAppUser(server, admin);
    const list = await ok(server.api<Page<{ id: number }>>('GET', '/api/app/v1/content', { token: user.token }));
    expect(list.list.map((i) => i.id)).not.toContain(targeted.id);
    const unknown = await server.api('POST', '/api/admin/content', { token: admin, body: { ...article('Bad model'), models: ['NOPE'] } });
    expect(unknown.body.code).not.toBe(0);
  });

  it('popular lists and content data equal the seeded views; increases compare equal periods', async () => {
    const users = await Promise.all([1, 2, 3, 4].map(() => confirmedAppUser(server, admin)));
    const video = (en: string) => create({ type: 'video', title: { 'zh-CN': en, 'en-US': en }, body: { 'zh-CN': '', 'en-US': '' }, mediaUrl: 'https://videos.example/x.mp4' });
    const [a, b, c, d] = await Promise.all([video('Video A'), video('Video B'), video('Video C'), video('Video D')]);
    const seed = (id: number, user: number, daysAgo: number) => recordOpen(server.ctx.db, id, users[user]!.id, new Date(Date.now() - daysAgo * DAY));
    // A: 3 in the last 7 days, 1 in the 7 before → +200 %.
    await seed(a!.id, 0, 0);
    await seed(a!.id, 1, 1);
    await seed(a!.id, 2, 6);
    await seed(a!.id, 0, 8);
    // B: 1 now, 2 before → −50 %.
    await seed(b!.id, 0, 2);
    await seed(b!.id, 1, 7);
    await seed(b!.id, 2, 13);
    // C: 2 now, none before → null (new). D: only before → not in the list. Day 14 is in neither period.
    await seed(c!.id, 0, 3);
    await seed(c!.id, 3, 3);
    await seed(d!.id, 0, 10);
    await seed(a!.id, 3, 14);

    const popular = await ok(server.api<PopularItem[]>('GET', '/api/admin/content/popular?type=video', { token: admin, lang: 'en-US' }));
    expect(popular).toEqual([
      { key: a!.id, clickNumber: 3, title: 'Video A', increases: 200 },
      { key: c!.id, clickNumber: 2, title: 'Video C', increases: null },
      { key: b!.id, clickNumber: 1, title: 'Video B', increases: -50 },
    ]);
    // A 3-day period: A has day 0 and 1 (2 opens), before it (days 3–5) nothing → null; C's two opens on day 3 are "before".
    const short = await ok(server.api<PopularItem[]>('GET', '/api/admin/content/popular?type=video&days=3', { token: admin }));
    expect(short).toEqual([
      { key: a!.id, clickNumber: 2, title: 'Video A', increases: null },
      { key: b!.id, clickNumber: 1, title: 'Video B', increases: null },
    ]);

    for (const days of [8, 30, 90]) {
      const points = await ok(server.api<ContentDataPoint[]>('GET', `/api/admin/content/data?days=${days}`, { token: admin }));
      expect(points).toHaveLength(days);
      expect(points.at(-1)!.x).toBe(new Date().toISOString().slice(0, 10));
      const raw = await server.ctx.db.execute(sql`select to_char(day, 'YYYY-MM-DD') as x, count(*)::int as y from content_views group by day`);
      const byDay = new Map((raw as unknown as { rows: { x: string; y: number }[] }).rows.map((r) => [r.x, r.y]));
      expect(points).toEqual(points.map((p) => ({ x: p.x, y: byDay.get(p.x) ?? 0 })));
      expect(points.reduce((s, p) => s + p.y, 0)).toBeGreaterThan(0);
    }
    expect((await ok(server.api<ContentDataPoint[]>('GET', '/api/admin/content/data', { token: admin }))).length).toBe(8);
    expect((await server.api('GET', '/api/admin/content/data?days=7', { token: admin })).status).toBe(400);
  });

  it('keeps the top 5 of a type, most opened first', async () => {
    const users = await Promise.all([1, 2, 3, 4, 5, 6].map(() => confirmedAppUser(server, admin)));
    const items = [];
    for (let i = 0; i < 6; i++) items.push(await create({ type: 'image', title: { 'zh-CN': `图 ${i}`, 'en-US': `Image ${i}` }, body: { 'zh-CN': '', 'en-US': '' } }));
    for (const [i, item] of items.entries()) for (let u = 0; u <= i; u++) await recordOpen(server.ctx.db, item.id, users[u]!.id);
    const popular = await ok(server.api<PopularItem[]>('GET', '/api/admin/content/popular?type=image', { token: admin, lang: 'zh-CN' }));
    expect(popular.map((p) => [p.title, p.clickNumber])).toEqual([
      ['图 5', 6],
      ['图 4', 5],
      ['图 3', 4],
      ['图 2', 3],
      ['图 1', 2],
    ]);
  });

  it('defines increases against an empty previous period as null', () => {
    expect(increase(5, 0)).toBeNull();
    expect(increase(0, 0)).toBeNull();
    expect(increase(0, 4)).toBe(-100);
    expect(increase(3, 2)).toBe(50);
  });

  it('re-encodes images without their EXIF; refusals leave nothing behind', async () => {
    const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3a7d2c' } })
      .jpeg()
      .withExif({ IFD0: { Copyright: 'secret-gps-owner' } })
      .toBuffer();
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    const stored = await upload('image', photo, 'lawn.png');
    expect(stored.body.code, JSON.stringify(stored.body)).toBe(0);
    expect(stored.body.data).toMatchObject({ kind: 'image', mime: 'image/jpeg', width: 64, height: 48 });
    const served = await fetch(server.url + stored.body.data.url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/jpeg');
    const bytes = Buffer.from(await served.arrayBuffer());
    expect((await sharp(bytes).metadata()).exif).toBeUndefined();
    expect(bytes.includes(Buffer.from('secret-gps-owner'))).toBe(false);
    const forged = stored.body.data.url.replace(/sig=[^&]+/, 'sig=AAAA');
    expect((await fetch(server.url + forged)).status).toBe(403);

    const kept = await storedFiles();
    // Text called .png, a video posing as an image, an image as a video, a broken JPEG: refused, nothing stored.
    const brokenJpeg = Buffer.concat([photo.subarray(0, 200), Buffer.alloc(100)]);
    for (const [kind, bytes, name] of [
      ['image', Buffer.from('<script>alert(1)</script>'.repeat(50)), 'x.png'],
      ['video', photo, 'x.mp4'],
      ['image', brokenJpeg, 'broken.jpg'],
    ] as const) {
      const res = await upload(kind, bytes, name);
      expect(res.status, name).toBe(415);
      expect(await storedFiles()).toEqual(kept);
    }
    const huge = Buffer.concat([photo, Buffer.alloc(11 * 1024 * 1024)]);
    const tooLarge = await upload('image', huge, 'huge.jpg');
    expect(tooLarge.status).toBe(413);
    expect(await storedFiles()).toEqual(kept);
    const rows = await server.ctx.db.execute(sql`select count(*)::int as n from content_files`);
    expect((rows as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(1);

    // The uploaded image serves as an image post and its cover.
    const post = await create({ type: 'image', title: { 'zh-CN': '草坪', 'en-US': 'Lawn' }, body: { 'zh-CN': '', 'en-US': '' }, coverFileId: stored.body.data.id, mediaFileId: stored.body.data.id });
    expect((await publish(post.id)).coverUrl).toMatch(/^\/api\/content\/file\/\d+\?exp=\d+&sig=/);
    // An image post without its image cannot be published.
    const empty = await create({ type: 'image', title: { 'zh-CN': '空', 'en-US': 'Empty' }, body: { 'zh-CN': '', 'en-US': '' } });
    expect((await server.api('PUT', `/api/admin/content/item/${empty.id}/state`, { token: admin, body: { state: 'published' } })).status).toBe(400);
  });

  it('notify is role-aware: an operator never sees the admin-only account requests', async () => {
    await server.ctx.db.insert(staffUsers).values({ username: `pending${Date.now()}`, passwordHash: 'x', name: 'Pending', status: 'pending', role: 'user' });
    const adminView = await ok(server.api<NotifyStats>('GET', '/api/admin/statistics/notify', { token: admin }));
    expect(adminView.list).toContainEqual({ key: 'accountRequests', count: 1, link: '/system/system-user?status=pending', level: 'info' });
    const operator = await operatorToken(server, admin);
    const operatorView = await ok(server.api<NotifyStats>('GET', '/api/admin/statistics/notify', { token: operator }));
    expect(operatorView.list.map((i) => i.key)).not.toContain('accountRequests');
    for (const item of operatorView.list) expect(item.count).toBeGreaterThan(0);
    expect((await server.api('GET', '/api/admin/statistics/notify')).status).toBe(401);
  });

  it('counts app users active today: a user-log entry or a content open', async () => {
    const before = await ok(server.api<{ day: string; count: number }>('GET', '/api/admin/statistics/active-app-users', { token: admin }));
    expect(before.day).toBe(new Date().toISOString().slice(0, 10));
    // Signing in writes the user log: one more active user.
    await confirmedAppUser(server, admin);
    const after = await ok(server.api<{ day: string; count: number }>('GET', '/api/admin/statistics/active-app-users', { token: admin }));
    expect(after.count).toBe(before.count + 1);
  });
});
