import { lstat, mkdir, mkdtemp, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentFiles } from '../../src/content/content.sql.ts';
import { OrphanFileSweep } from '../../src/stored-files/orphan-sweep.ts';
import { startServer, type TestServer } from '../harness.ts';

const HOUR = 3_600_000;
const exists = (file: string) => lstat(file).then(() => true, () => false);

describe('orphan file sweep', { timeout: 120_000 }, () => {
  let server: TestServer;
  let dataDir: string;
  let outside: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'mowerline-sweep-'));
    outside = await mkdtemp(path.join(tmpdir(), 'mowerline-outside-'));
    server = await startServer({ dataDir });
  });
  afterAll(async () => {
    await server?.close();
    await rm(dataDir, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });

  /** Writes a file under DATA_DIR/files, `ageMs` old. */
  async function put(relative: string, ageMs: number, root = path.join(dataDir, 'files')) {
    const full = path.join(root, relative);
    await mkdir(path.dirname(full), { recursive: true });
    await writeFile(full, `bytes of ${relative}`);
    const at = new Date(Date.now() - ageMs);
    await utimes(full, at, at);
    return full;
  }

  it('removes old files no row names and old .part files; keeps named, young and linked-to files', async () => {
    const files = path.join(dataDir, 'files');
    await put('content/named.jpg', 3 * HOUR);
    await server.ctx.db.insert(contentFiles).values({ kind: 'image', mime: 'image/jpeg', filePath: 'content/named.jpg', size: 10, sha256: 'a'.repeat(64) });
    await put('content/orphan.jpg', 2 * HOUR);
    await put('tickets/orphan.txt', 2 * HOUR);
    await put('tmp/cut.part', 2 * HOUR);
    await put('tmp/young.part', 10 * 60_000);
    await put('tickets/young.txt', 10 * 60_000);
    // Links out of the files directory, to a file and to a directory, both old and named by no row.
    const secret = await put('secret.txt', 5 * HOUR, outside);
    await put('deep/kept.txt', 5 * HOUR, outside);
    await symlink(secret, path.join(files, 'content', 'link.jpg'));
    await symlink(path.join(outside, 'deep'), path.join(files, 'elsewhere'));

    const logged: Array<{ obj: object; msg: string }> = [];
    const sweep = new OrphanFileSweep({ db: server.ctx.db, dataDir, minAgeMs: HOUR, log: { info: (obj, msg) => logged.push({ obj, msg }), error: (obj, msg) => logged.push({ obj, msg }) } });
    const result = await sweep.sweep();

    expect(result.removed.sort()).toEqual(['content/orphan.jpg', 'tickets/orphan.txt', 'tmp/cut.part']);
    for (const gone of result.removed) expect(await exists(path.join(files, gone))).toBe(false);
    for (const kept of ['content/named.jpg', 'tmp/young.part', 'tickets/young.txt', 'content/link.jpg', 'elsewhere']) expect(await exists(path.join(files, kept)), kept).toBe(true);
    expect(await readFile(secret, 'utf8')).toBe('bytes of secret.txt');
    expect(await exists(path.join(outside, 'deep', 'kept.txt'))).toBe(true);
    expect(logged).toHaveLength(1);
    expect(logged[0]!.obj).toMatchObject({ count: 3, files: expect.arrayContaining(result.removed) as unknown });

    // Nothing left to do: a second pass removes nothing and logs nothing.
    expect((await sweep.sweep()).removed).toEqual([]);
    expect(logged).toHaveLength(1);
  });

  it('runs once as soon as it starts, and stop() waits for that pass', async () => {
    await put('content/late-orphan.jpg', 2 * HOUR);
    const logged: string[] = [];
    const sweep = new OrphanFileSweep({ db: server.ctx.db, dataDir, minAgeMs: HOUR, log: { info: (_o, msg) => logged.push(msg), error: (_o, msg) => logged.push(msg) } });
    sweep.start();
    await sweep.stop();
    expect(await exists(path.join(dataDir, 'files', 'content', 'late-orphan.jpg'))).toBe(false);
    expect(logged).toEqual(['orphan file sweep removed 1 file(s) with no row']);
  });

  it('does nothing when DATA_DIR/files does not exist', async () => {
    const sweep = new OrphanFileSweep({ db: server.ctx.db, dataDir: path.join(outside, 'none'), minAgeMs: 0, log: { info: () => {}, error: () => {} } });
    expect(await sweep.sweep()).toEqual({ removed: [], bytes: 0 });
  });

  it('sweeps only tmp/ when many stored files and not one is named (a node on the wrong database)', async () => {
    const other = await mkdtemp(path.join(tmpdir(), 'mowerline-sweep-wrong-db-'));
    try {
      for (let i = 0; i < 25; i++) await put(`ota/${i}.bin`, 5 * HOUR, path.join(other, 'files'));
      await put('tmp/cut.part', 5 * HOUR, path.join(other, 'files'));
      const errors: object[] = [];
      const sweep = new OrphanFileSweep({ db: server.ctx.db, dataDir: other, minAgeMs: HOUR, log: { info: () => {}, error: (obj) => errors.push(obj) } });
      expect((await sweep.sweep()).removed).toEqual(['tmp/cut.part']);
      expect(errors).toEqual([{ files: 25 }]);
      expect(await exists(path.join(other, 'files', 'ota', '0.bin'))).toBe(true);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });
});
