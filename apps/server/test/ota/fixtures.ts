import { mkdtempSync, rmSync } from 'node:fs';
import { and, eq, inArray, ne } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Campaign, CampaignCreateBody } from '@mowerline/contract';
import { OtaMower, type OtaMowerOptions } from '../../../fleet-sim/src/ota-mower.ts';
import type { OtaKnobs } from '../../../fleet-sim/src/ota.ts';
import type { Config } from '../../src/config.ts';
import type { Database } from '../../src/db/client.ts';
import { deviceState, devices } from '../../src/devices/devices.sql.ts';
import { hashSecret } from '../../src/gateway/device-credentials.ts';
import { productModels } from '../../src/product/product.sql.ts';
import type { TestServer } from '../harness.ts';
import { brokerUrl, startDeviceServer } from '../devices/fixtures.ts';

/** A server for OTA tests: a temporary DATA_DIR for files and the signing key, fast campaign ticks. */
export async function startOtaServer(opts: { dataDir?: string; config?: Partial<Config>; database?: Database; keepDatabase?: boolean } = {}) {
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(tmpdir(), 'mowerline-ota-'));
  const server = await startDeviceServer({ database: opts.database, keepDatabase: opts.keepDatabase, config: { dataDir, otaTickMs: 200, ...opts.config } });
  // Download links must point at this server's real port.
  server.config.publicUrl = server.url;
  return { server, dataDir, removeDir: () => rmSync(dataDir, { recursive: true, force: true }) };
}

export async function seedModel(server: TestServer, code = `OTA${randomBytes(3).toString('hex').toUpperCase()}`): Promise<{ id: number; code: string }> {
  const [row] = await server.ctx.db.insert(productModels).values({ code, name: `Model ${code}` }).returning();
  return { id: row!.id, code };
}

/** Registers SNs straight into the registry (one shared secret: fast for hundreds of mowers). */
export async function seedDevices(server: TestServer, modelId: number, count: number, prefix = `O${randomBytes(2).toString('hex').toUpperCase()}`) {
  const secret = randomBytes(32).toString('base64url');
  const { secretHash, secretSalt } = hashSecret(secret);
  const sns = Array.from({ length: count }, (_, i) => `${prefix}${String(i).padStart(5, '0')}`);
  await server.ctx.db.insert(devices).values(sns.map((sn) => ({ sn, modelId, secretHash, secretSalt })));
  return { sns, secret };
}

export async function publicKeyPem(server: TestServer): Promise<string> {
  const res = await server.api<{ publicKeyPem: string }>('GET', '/api/ota/public-key');
  return res.body.data.publicKeyPem;
}

export async function startMowers(
  server: TestServer,
  sns: string[],
  secret: string,
  opts: { firmware?: string; knobs?: (sn: string, i: number) => OtaKnobs; connect?: boolean; extra?: Partial<OtaMowerOptions> } = {},
): Promise<OtaMower[]> {
  const pem = await publicKeyPem(server);
  const mowers = sns.map(
    (sn, i) => new OtaMower({ sn, secret, mqttUrl: brokerUrl(server), firmware: opts.firmware ?? '1.0.0', publicKeyPem: pem, knobs: opts.knobs?.(sn, i) ?? {}, ...opts.extra }),
  );
  if (opts.connect !== false) {
    for (let i = 0; i < mowers.length; i += 50) await Promise.all(mowers.slice(i, i + 50).map((m) => m.connect()));
    await waitFor(async () => (await onlineCount(server, sns)) === sns.length, 20_000);
    // connect() returns on the broker's PUBACK of the first telemetry; a campaign created before the
    // server ingested it would record the version as unknown. Wait until the server knows them all.
    await waitFor(async () => (await reportedCount(server, sns)) === sns.length, 20_000);
  }
  return mowers;
}

async function reportedCount(server: TestServer, sns: string[]): Promise<number> {
  await server.ctx.gateway.flush();
  const rows = await server.ctx.db.select({ sn: deviceState.sn }).from(deviceState).where(and(inArray(deviceState.sn, sns), ne(deviceState.firmware, '')));
  return rows.length;
}

export async function onlineCount(server: TestServer, sns: string[]): Promise<number> {
  await server.ctx.gateway.flush();
  const rows = await server.ctx.db.select({ sn: deviceState.sn }).from(deviceState).where(and(inArray(deviceState.sn, sns), eq(deviceState.online, true)));
  return rows.length;
}

/** A small firmware image: random bytes with a NUL early (binary, as an image is). */
export function firmwareImage(size = 64 * 1024): Buffer {
  const image = randomBytes(size);
  image[0] = 0x7f;
  image[1] = 0x00;
  return image;
}

export async function upload(
  server: TestServer,
  token: string,
  fields: Record<string, string>,
  file: { name: string; data: Buffer; type?: string },
  kind: 'firmware' | 'voice' = 'firmware',
  lang = 'en-US',
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(file.data)], { type: file.type ?? 'application/octet-stream' }), file.name);
  const res = await fetch(`${server.url}/api/admin/product/${kind}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'accept-language': lang }, body: form });
  return { status: res.status, body: (await res.json()) as { code: number; msg: string; data: { id: number; sha256: string; size: number; signature: string } } };
}

/** Uploads and releases a firmware image; returns its id. */
export async function releasedFirmware(server: TestServer, token: string, modelId: number, version: string, image = firmwareImage()): Promise<number> {
  const up = await upload(server, token, { modelId: String(modelId), version, changelogEn: `Version ${version}`, changelogZh: `版本 ${version}` }, { name: `fw-${version}.bin`, data: image });
  if (up.body.code !== 0) throw new Error(JSON.stringify(up.body));
  const rel = await server.api('PUT', `/api/admin/product/firmware/${up.body.data.id}`, { token, body: { status: 'released' } });
  if (rel.body.code !== 0) throw new Error(JSON.stringify(rel.body));
  return up.body.data.id;
}

export async function createCampaign(server: TestServer, token: string, body: Partial<CampaignCreateBody> & Pick<CampaignCreateBody, 'artifactId'>): Promise<Campaign> {
  const res = await server.api<Campaign>('POST', '/api/admin/ota/campaign', {
    token,
    body: { name: 'test rollout', target: { type: 'model' }, phases: [10, 50, 100], ratePerMinute: 10_000, retries: 0, timeoutSeconds: 60, ...body },
  });
  if (res.body.code !== 0) throw new Error(JSON.stringify(res.body));
  return res.body.data;
}

export async function campaign(server: TestServer, token: string, id: number): Promise<Campaign> {
  return (await server.api<Campaign>('GET', `/api/admin/ota/campaign/${id}`, { token })).body.data;
}

export async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs = 30_000, stepMs = 100): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, stepMs));
  }
}
