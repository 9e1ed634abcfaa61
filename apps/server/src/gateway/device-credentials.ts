import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { SN_PATTERN } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { devices } from '../devices/devices.sql.ts';
import { productModels } from '../product/product.sql.ts';
import type { LimitOverrides } from './ingest-limits.ts';

/**
 * Device secrets are 32 random bytes. They are stored as sha256(salt ‖ secret): a slow password
 * hash buys nothing against a 256-bit random value and would make every MQTT connect (and a
 * reconnect storm of the whole fleet) cost tens of milliseconds of CPU. docs/device-protocol.md.
 */
export function generateSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function hashSecret(secret: string): { secretHash: string; secretSalt: string } {
  const secretSalt = randomBytes(16).toString('hex');
  return { secretHash: digest(secretSalt, secret), secretSalt };
}

function digest(salt: string, secret: string): string {
  return createHash('sha256').update(Buffer.from(salt, 'hex')).update(secret, 'utf8').digest('hex');
}

export function secretMatches(secret: string, hash: string, salt: string): boolean {
  const expected = Buffer.from(hash, 'hex');
  const actual = Buffer.from(digest(salt, secret), 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** Constant-time comparison of two strings (the server's own broker credential). */
export function sameString(a: string, b: string): boolean {
  const x = createHash('sha256').update(a).digest();
  const y = createHash('sha256').update(b).digest();
  return timingSafeEqual(x, y) && a.length === b.length;
}

/** Verified against when an SN is unknown (see check). */
const DUMMY = hashSecret(generateSecret());

export type DeviceAuthResult = 'ok' | 'unknown' | 'secret' | 'disabled' | 'clientId';

interface CredentialRow {
  sn: string;
  hash: string;
  salt: string;
  enabled: boolean;
  telemetryRate: number | null;
  telemetryBurst: number | null;
  eventsPerHour: number | null;
}

interface Waiting {
  resolve(row: CredentialRow | undefined): void;
  reject(err: unknown): void;
}

/** SNs per lookup query. */
const LOOKUP_BATCH = 5000;

/**
 * May this SN connect with this secret and client id? Lookups are batched: while one query runs,
 * every SN asked meanwhile waits for the next single `sn = any(…)` query. A reconnect storm of the
 * whole fleet (a broker or server restart) then costs tens of queries instead of one per mower; on
 * the embedded database's single connection, one query per connect queued behind the ingest's
 * writes until connects timed out (bench/ingest.ts, 10,000 mowers).
 */
export class DeviceCredentials {
  private waiting = new Map<string, Waiting[]>();
  private running = false;

  /** `onVerified`: a device proved its secret; its model's ingest limits (gateway/ingest-limits.ts). */
  constructor(
    private readonly db: Db,
    private readonly onVerified?: (sn: string, limits: LimitOverrides) => void,
  ) {}

  async check(username: string, password: string, clientId: string): Promise<DeviceAuthResult> {
    if (!SN_PATTERN.test(username) || password.length === 0 || password.length > 256) return 'unknown';
    if (clientId !== username) return 'clientId';
    const row = await this.lookup(username);
    if (!row) {
      // The same work as a wrong secret, so the time taken does not tell a registered SN apart.
      secretMatches(password, DUMMY.secretHash, DUMMY.secretSalt);
      return 'unknown';
    }
    if (!secretMatches(password, row.hash, row.salt)) return 'secret';
    if (!row.enabled) return 'disabled';
    this.onVerified?.(row.sn, { telemetryRate: row.telemetryRate, telemetryBurst: row.telemetryBurst, eventsPerHour: row.eventsPerHour });
    return 'ok';
  }

  private lookup(sn: string): Promise<CredentialRow | undefined> {
    return new Promise((resolve, reject) => {
      const list = this.waiting.get(sn);
      if (list) list.push({ resolve, reject });
      else this.waiting.set(sn, [{ resolve, reject }]);
      if (!this.running) void this.run();
    });
  }

  private async run() {
    this.running = true;
    while (this.waiting.size > 0) {
      const batch = new Map([...this.waiting].slice(0, LOOKUP_BATCH));
      for (const sn of batch.keys()) this.waiting.delete(sn);
      try {
        const rows = await this.db
          .select({
            sn: devices.sn,
            hash: devices.secretHash,
            salt: devices.secretSalt,
            enabled: devices.enabled,
            telemetryRate: productModels.telemetryRate,
            telemetryBurst: productModels.telemetryBurst,
            eventsPerHour: productModels.eventsPerHour,
          })
          .from(devices)
          .innerJoin(productModels, sql`${productModels.id} = ${devices.modelId}`)
          .where(sql`${devices.sn} = any(${sql.param([...batch.keys()])}::text[])`);
        const bySn = new Map(rows.map((r) => [r.sn, r]));
        for (const [sn, list] of batch) for (const w of list) w.resolve(bySn.get(sn));
      } catch (err) {
        for (const list of batch.values()) for (const w of list) w.reject(err);
      }
    }
    this.running = false;
  }
}
