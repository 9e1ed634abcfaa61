import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { ContentItem, Page } from '@mowerline/contract';
import { startServer, type TestServer } from '../harness.ts';
import { confirmedAppUser } from '../end-users/fixtures.ts';
import { seedDemoContent } from '../../src/content/demo-content.ts';

describe('demo content: published through the staff services, once', () => {
  let dataDir: string;
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'mowerline-demo-content-'));
    server = await startServer({ config: { dataDir } });
    admin = await server.login();
  });
  afterAll(async () => {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('publishes articles, image posts and videos in both languages with rendered covers; a restart adds nothing', async () => {
    expect(await seedDemoContent(server.ctx.db, dataDir, server.config.jwtSecret, { id: 1, name: 'Admin' })).toBeGreaterThan(0);
    expect(await seedDemoContent(server.ctx.db, dataDir, server.config.jwtSecret, { id: 1, name: 'Admin' })).toBe(0);
    const all = await server.api<Page<ContentItem>>('GET', '/api/admin/content?pageSize=100', { token: admin });
    const items = all.body.data.list;
    expect(new Set(items.map((i) => i.type))).toEqual(new Set(['text', 'image', 'video']));
    for (const item of items) {
      expect(item.state).toBe('published');
      expect(item.title['zh-CN']).not.toBe(item.title['en-US']);
      const cover = await fetch(server.url + item.coverUrl!);
      expect(cover.headers.get('content-type')).toBe('image/png');
      expect((await sharp(Buffer.from(await cover.arrayBuffer())).metadata()).width).toBe(640);
    }
    const user = await confirmedAppUser(server, admin, { locale: 'zh-CN' });
    const app = await server.api<Page<{ title: string }>>('GET', '/api/app/v1/content?pageSize=50', { token: user.token });
    expect(app.body.data.total).toBe(items.length);
    expect(app.body.data.list.every((i) => /[\u4e00-\u9fff]/.test(i.title))).toBe(true);
  });
});
