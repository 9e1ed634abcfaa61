import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import type { AppTicketDetail } from '@mowerline/contract';
import { waitFor } from '../devices/fixtures.ts';
import { storedFiles } from '../tickets/fixtures.ts';
import { callJson, scratchStore, startServerProcess } from '../server-process.ts';

const password = 'K1ll#Upload-Mower';
const appPassword = 'Mow3r#Garden8';
const MB = 1024 * 1024;

/** Plain text attachments (the type is sniffed: printable ASCII is text/plain). */
const textFile = (bytes: number) => Buffer.from(randomBytes(bytes / 2).toString('hex'));

const setUp = process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite';

describe(`kill -9 mid-upload (${setUp})`, () => {
  const store = scratchStore('kill-upload');
  const { dataDir, children } = store;
  afterAll(() => store.cleanup());

  it('leaves no orphaned file once the restarted server has swept, and keeps every attachment a ticket names', async () => {
    const databaseUrl = await store.databaseUrl();
    const first = await startServerProcess({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl }, password);
    children.push(first.child);
    const admin = (await callJson<{ access_token: string }>(`${first.url}/api/admin/user/login`, 'POST', { username: 'admin', password })).data.access_token;
    const email = `kill.${randomBytes(4).toString('hex')}@example.test`;
    const registered = await callJson(`${first.url}/api/app/v1/user/register`, 'POST', { email, password: appPassword, name: 'Ann', country: 'DE', locale: 'en-US', timeZone: 'Europe/Berlin' });
    expect(registered.code).toBe(0);
    // The sign-up answer names no account (it must read the same for a taken e-mail): support finds it.
    const found = await callJson<{ list: Array<{ id: number }> }>(`${first.url}/api/admin/end-user?keyword=${encodeURIComponent(email)}`, 'GET', undefined, admin);
    expect(found.data.list).toHaveLength(1);
    expect((await callJson(`${first.url}/api/admin/end-user/${found.data.list[0]!.id}/confirm`, 'POST', undefined, admin)).code).toBe(0);
    const user = (await callJson<{ access_token: string }>(`${first.url}/api/app/v1/user/login`, 'POST', { email, password: appPassword })).data.access_token;

    // A ticket filed whole: its two attachments are named by rows and must survive the sweep.
    const kept = [textFile(64 * 1024), textFile(32 * 1024)];
    const form = new FormData();
    form.append('category', 'device');
    form.append('title', 'Filed before the crash');
    form.append('description', 'two logs');
    kept.forEach((bytes, i) => form.append('file', new Blob([bytes]), `log${i}.txt`));
    const filed = (await (await fetch(`${first.url}/api/app/v1/feedback`, { method: 'POST', headers: { authorization: `Bearer ${user}` }, body: form })).json()) as { code: number; data: AppTicketDetail };
    expect(filed.code).toBe(0);
    const before = await storedFiles(dataDir);
    expect(before).toHaveLength(2);

    // Five attachments streamed by hand: three whole, the fourth half sent, then kill -9.
    const boundary = `----kill${randomBytes(8).toString('hex')}`;
    const upload = request(`${first.url}/api/app/v1/feedback`, { method: 'POST', headers: { authorization: `Bearer ${user}`, 'content-type': `multipart/form-data; boundary=${boundary}` } });
    upload.on('error', () => {});
    const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const fileHead = (i: number) => `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big${i}.txt"\r\nContent-Type: text/plain\r\n\r\n`;
    upload.write(field('category', 'device') + field('title', 'Cut off by a crash') + field('description', 'five logs'));
    for (let i = 0; i < 3; i++) upload.write(Buffer.concat([Buffer.from(fileHead(i)), textFile(2 * MB), Buffer.from('\r\n')]));
    upload.write(Buffer.concat([Buffer.from(fileHead(3)), textFile(MB)]));
    await waitFor(
      async () => {
        const now = await storedFiles(dataDir);
        return now.filter((f) => f.startsWith('tickets/')).length === 5 && now.some((f) => f.startsWith('tmp/') && f.endsWith('.part'));
      },
      60_000,
      'three attachments stored and a fourth being received',
    );
    first.child.kill('SIGKILL');
    await new Promise((resolve) => (first.child.exitCode !== null || first.child.signalCode !== null ? resolve(null) : first.child.once('exit', resolve)));
    upload.destroy();
    const left = await storedFiles(dataDir);
    expect(left.filter((f) => !before.includes(f)).length).toBeGreaterThanOrEqual(4);

    // Restarted with no minimum age: the sweep at start removes everything no row names.
    const second = await startServerProcess({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl, ORPHAN_FILE_MIN_AGE_MINUTES: '0' }, password);
    children.push(second.child);
    try {
      // The log line crosses the child's stdout pipe, possibly after the files are already gone.
      const swept = /orphan file sweep removed (\d+) file\(s\) with no row/;
      await waitFor(async () => swept.test(second.output()), 60_000, 'the sweep logged');
      expect(Number(swept.exec(second.output())![1])).toBe(left.length - before.length);
      expect(await storedFiles(dataDir)).toEqual(before);
      const token = (await callJson<{ access_token: string }>(`${second.url}/api/app/v1/user/login`, 'POST', { email, password: appPassword })).data.access_token;
      const list = await callJson<{ list: Array<{ title: string }> }>(`${second.url}/api/app/v1/feedback`, 'GET', undefined, token);
      expect(list.data.list.map((t) => t.title)).toEqual(['Filed before the crash']);
      for (const [i, a] of filed.data.attachments.entries()) {
        const res = await fetch(`${second.url}/api/app/v1/feedback/${filed.data.id}/attachment/${a.id}`, { headers: { authorization: `Bearer ${token}` } });
        expect(res.status).toBe(200);
        expect(Buffer.from(await res.arrayBuffer()).equals(kept[i]!)).toBe(true);
      }
    } finally {
      second.child.kill('SIGTERM');
      await new Promise((resolve) => (second.child.exitCode !== null ? resolve(null) : second.child.once('exit', resolve)));
    }
  }, 240_000);
});
