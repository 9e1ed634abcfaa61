import { randomBytes } from 'node:crypto';
import type { ProductModel, SnRecord } from '@mowerline/contract';
import type { ApiClient } from './api-client.ts';
import { SecretsStore } from './secrets-store.ts';

export interface DeviceSpec {
  sn: string;
  model: { code: string; name: string };
  region: string;
}

const IMPORT_CHUNK = 5000;

/**
 * Makes sure the platform knows every simulated mower, through the real admin API: product models
 * exist, new SNs are imported with the secrets the "factory" (this simulator) generated, and an SN
 * the platform already has but whose secret was lost gets its secret rotated.
 */
export async function registerFleet(
  api: ApiClient,
  specs: DeviceSpec[],
  store: SecretsStore,
  prefix: string,
  /** The labels' pairing codes (what owners bind with), kept like the secrets. */
  pairing: SecretsStore = new SecretsStore(),
): Promise<Map<string, string>> {
  const models = await api.call<ProductModel[]>('GET', '/api/admin/product/model');
  const wanted = new Map(specs.map((s) => [s.model.code, s.model]));
  for (const model of wanted.values()) {
    if (!models.some((m) => m.code === model.code)) {
      await api.call('POST', '/api/admin/product/model', { code: model.code, name: model.name, description: 'Simulated mowers (fleet simulator)' });
    }
  }

  const existing = new Set<string>();
  for (let page = 1; ; page++) {
    const data = await api.call<{ list: SnRecord[] }>('GET', `/api/admin/product/sn?sn=${encodeURIComponent(prefix)}&pageSize=100&page=${page}`);
    for (const r of data.list) existing.add(r.sn);
    if (data.list.length < 100) break;
  }

  const fresh = specs.filter((s) => !existing.has(s.sn));
  for (let i = 0; i < fresh.length; i += IMPORT_CHUNK) {
    const part = fresh.slice(i, i + IMPORT_CHUNK);
    const rows = part.map((s) => {
      const secret = randomBytes(32).toString('base64url');
      store.set(s.sn, secret);
      return `${s.sn},${s.model.code},${s.region},${secret}`;
    });
    const imported = await api.call<{ devices: Array<{ sn: string; pairingCode?: string }> }>('POST', '/api/admin/product/sn/import', ['sn,model,region,secret', ...rows].join('\r\n'), 'text/csv');
    for (const d of imported.devices) if (d.pairingCode) pairing.set(d.sn, d.pairingCode);
  }

  for (const s of specs) {
    // A lost secret, or a label printed before pairing codes existed: rotation issues both anew.
    if (existing.has(s.sn) && (!store.get(s.sn) || !pairing.get(s.sn))) {
      const rotated = await api.call<{ secret: string; pairingCode?: string }>('POST', `/api/admin/product/sn/${s.sn}/rotate-secret`);
      store.set(s.sn, rotated.secret);
      if (rotated.pairingCode) pairing.set(s.sn, rotated.pairingCode);
    }
  }
  store.save();
  pairing.save();
  return new Map(specs.map((s) => [s.sn, store.get(s.sn)!]));
}
