import { createHash, createPublicKey, verify } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { otaManifest } from '@mowerline/contract';
import { otaArtifacts } from '../../src/firmware/firmware.sql.ts';
import { systemLogs } from '../../src/system-log/system-log.sql.ts';
import { eq } from 'drizzle-orm';
import type { TestServer } from '../harness.ts';
import { firmwareImage, seedModel, startOtaServer, upload } from './fixtures.ts';

function filesLeft(dataDir: string): string[] {
  const walk = (dir: string): string[] => {
    try {
      return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
    } catch {
      return [];
    }
  };
  return walk(path.join(dataDir, 'files'));
}

describe('firmware artifacts', () => {
  let server: TestServer;
  let dataDir: string;
  let removeDir: () => void;
  let token: string;
  let model: { id: number; code: string };

  beforeAll(async () => {
    ({ server, dataDir, removeDir } = await startOtaServer({ config: { firmwareMaxMb: 1 } }));
    token = await server.login();
    model = await seedModel(server);
  });
  afterAll(async () => {
    await server.close();
    removeDir();
  });

  it('stores an upload with its SHA-256 and an Ed25519 signature devices can verify with the published key', async () => {
    const image = firmwareImage(200_000);
    const res = await upload(server, token, { modelId: String(model.id), version: '2.1.0', changelogZh: '修复', changelogEn: 'Fixes', minFromVersion: '1.0.0' }, { name: 'mower-2.1.0.bin', data: image });
    expect(res.body.code).toBe(0);
    const artifact = res.body.data as unknown as { id: number; sha256: string; size: number; signature: string; status: string; minFromVersion: string };
    expect(artifact.sha256).toBe(createHash('sha256').update(image).digest('hex'));
    expect(artifact).toMatchObject({ size: image.length, status: 'draft', minFromVersion: '1.0.0' });
    const key = await server.api<{ publicKeyPem: string; algorithm: string }>('GET', '/api/ota/public-key');
    expect(key.body.data.algorithm).toBe('Ed25519');
    const manifest = otaManifest({ kind: 'firmware', model: model.code, language: '', version: '2.1.0', size: image.length, sha256: artifact.sha256 });
    expect(verify(null, Buffer.from(manifest), createPublicKey(key.body.data.publicKeyPem), Buffer.from(artifact.signature, 'base64'))).toBe(true);
    const [audit] = await server.ctx.db.select().from(systemLogs).where(eq(systemLogs.action, 'ota.firmware.upload'));
    expect(audit).toMatchObject({ result: 'success', targetType: 'firmware', targetName: `${model.code} 2.1.0` });
  });

  it('refuses an oversized upload with a clear error and leaves no file and no row', async () => {
    const before = filesLeft(dataDir);
    const rows = (await server.ctx.db.select().from(otaArtifacts)).length;
    const res = await upload(server, token, { modelId: String(model.id), version: '9.9.9' }, { name: 'huge.bin', data: firmwareImage(1024 * 1024 + 10) });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 43003, msg: 'The file exceeds the 1 MB limit; nothing was stored' });
    const zh = await upload(server, token, { modelId: String(model.id), version: '9.9.9' }, { name: 'huge.bin', data: firmwareImage(1024 * 1024 + 10) }, 'firmware', 'zh-CN');
    expect(zh.body.msg).toBe('文件超过 1 MB 上限，未保存');
    expect(filesLeft(dataDir)).toEqual(before);
    expect((await server.ctx.db.select().from(otaArtifacts)).length).toBe(rows);
  });

  it('refuses a wrong file type (by name and by content) and leaves nothing behind', async () => {
    const before = filesLeft(dataDir);
    const byName = await upload(server, token, { modelId: String(model.id), version: '9.9.8' }, { name: 'notes.txt', data: firmwareImage(1000), type: 'text/plain' });
    expect(byName.status).toBe(415);
    expect(byName.body).toMatchObject({ code: 43004, msg: 'Unsupported file type (allowed: .bin .img .fw .swu); nothing was stored' });
    const byContent = await upload(server, token, { modelId: String(model.id), version: '9.9.8' }, { name: 'page.bin', data: Buffer.from('<html>not firmware</html>'.repeat(100)) });
    expect(byContent.body.code).toBe(43004);
    const voice = await upload(server, token, { modelId: String(model.id), version: '1.0.0', language: 'en-US' }, { name: 'voice.zip', data: firmwareImage(1000) }, 'voice');
    expect(voice.body.code).toBe(43004);
    expect(filesLeft(dataDir)).toEqual(before);
    expect((await server.ctx.db.select().from(otaArtifacts).where(eq(otaArtifacts.version, '9.9.8'))).length).toBe(0);
  });

  it('refuses a voice pack without a language (never guesses zh-CN) and logs voice uploads as voice uploads', async () => {
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), firmwareImage(2000)]);
    const bare = await upload(server, token, { modelId: String(model.id), version: '1.0.0' }, { name: 'voice.zip', data: zip }, 'voice', 'en-US');
    expect(bare.body).toMatchObject({ code: 43017, msg: 'Choose the language of the voice pack' });
    expect((await server.ctx.db.select().from(otaArtifacts).where(eq(otaArtifacts.kind, 'voice'))).length).toBe(0);
    const en = await upload(server, token, { modelId: String(model.id), version: '1.0.0', language: 'en-US' }, { name: 'voice.zip', data: zip }, 'voice');
    expect(en.body.data).toMatchObject({ kind: 'voice', language: 'en-US' });
    const logged = await server.ctx.db.select().from(systemLogs).where(eq(systemLogs.action, 'ota.voice.upload'));
    expect(logged.filter((l) => l.result === 'success')).toMatchObject([{ targetType: 'voice', targetName: `${model.code} 1.0.0` }]);
    expect(logged.every((l) => l.targetType === 'voice')).toBe(true);
    const asFirmware = await server.ctx.db.select().from(systemLogs).where(eq(systemLogs.action, 'ota.firmware.upload'));
    expect(asFirmware.every((l) => l.targetType === 'firmware')).toBe(true);
  });

  it('refuses a duplicate version and fields sent after the file', async () => {
    const dup = await upload(server, token, { modelId: String(model.id), version: '2.1.0' }, { name: 'again.bin', data: firmwareImage(1000) });
    expect(dup.body).toMatchObject({ code: 43002, msg: 'Version 2.1.0 already exists for this model' });
    // A malformed version gets its own catalogued answer, no longer the generic 40000.
    const bad = await upload(server, token, { modelId: String(model.id), version: 'v2' }, { name: 'x.bin', data: firmwareImage(1000) });
    expect(bad.body).toMatchObject({ code: 43031, msg: 'The version "v2" is malformed: use a semantic version such as 1.4.2; nothing was stored' });
  });

  it('serves a signed download with Range support and refuses a tampered link', async () => {
    const image = firmwareImage(50_000);
    const up = await upload(server, token, { modelId: String(model.id), version: '2.2.0' }, { name: 'fw.bin', data: image });
    const { createUrlSigner } = await import('../../src/firmware/signing.ts');
    const link = createUrlSigner(server.config).url(up.body.data.id, 'SN0001');
    const full = await fetch(link.url);
    expect(full.status).toBe(200);
    expect(full.headers.get('accept-ranges')).toBe('bytes');
    expect(Buffer.from(await full.arrayBuffer()).equals(image)).toBe(true);
    const part = await fetch(link.url, { headers: { range: 'bytes=30000-' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 30000-49999/50000`);
    expect(Buffer.from(await part.arrayBuffer()).equals(image.subarray(30000))).toBe(true);
    const past = await fetch(link.url, { headers: { range: 'bytes=60000-' } });
    expect(past.status).toBe(416);
    const tampered = await fetch(link.url.replace('sn=SN0001', 'sn=SN0002'));
    expect(tampered.status).toBe(403);
  });

  it('keeps firmware writes admin-only and walks the status lifecycle', async () => {
    const list = await server.api<{ list: Array<{ id: number; version: string }>; total: number }>('GET', `/api/admin/product/firmware?modelId=${model.id}`, { token });
    expect(list.body.data.total).toBe(2);
    const id = list.body.data.list.find((a) => a.version === '2.1.0')!.id;
    const released = await server.api<{ status: string; releasedAt: string }>('PUT', `/api/admin/product/firmware/${id}`, { token, body: { status: 'released' } });
    expect(released.body.data.status).toBe('released');
    const deprecated = await server.api<{ status: string }>('PUT', `/api/admin/product/firmware/${id}`, { token, body: { status: 'deprecated' } });
    expect(deprecated.body.data.status).toBe('deprecated');
  });
});
