import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { SN_PATTERN } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { devices } from '../devices/devices.sql.ts';

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

export type DeviceAuthResult = 'ok' | 'unknown' | 'secret' | 'disabled' | 'clientId';

/** May this SN connect with this secret and client id? One indexed lookup, one hash. */
export async function checkDeviceCredentials(db: Db, username: string, password: string, clientId: string): Promise<DeviceAuthResult> {
  if (!SN_PATTERN.test(username) || password.length === 0 || password.length > 256) return 'unknown';
  if (clientId !== username) return 'clientId';
  const [row] = await db
    .select({ hash: devices.secretHash, salt: devices.secretSalt, enabled: devices.enabled })
    .from(devices)
    .where(eq(devices.sn, username))
    .limit(1);
  if (!row) return 'unknown';
  if (!secretMatches(password, row.hash, row.salt)) return 'secret';
  return row.enabled ? 'ok' : 'disabled';
}
