import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import * as OTPAuth from 'otpauth';

/** RFC 6238 as authenticator apps use it: SHA-1, 6 digits, 30-second steps. */
export const TOTP_PERIOD = 30;
const ISSUER = 'Mowerline';

export function newTotpSecret(): string {
  return new OTPAuth.Secret({ size: 20 }).base32;
}

export function totpUri(secretBase32: string, username: string): string {
  return new OTPAuth.TOTP({ issuer: ISSUER, label: username, secret: OTPAuth.Secret.fromBase32(secretBase32), period: TOTP_PERIOD }).toString();
}

/** The code of a secret at a time; `digits` and `algorithm` only differ in the RFC's test vectors. */
export function totpCode(secret: OTPAuth.Secret, timestampMs: number, digits = 6, algorithm = 'SHA1'): string {
  return OTPAuth.TOTP.generate({ secret, algorithm, digits, period: TOTP_PERIOD, timestamp: timestampMs });
}

/**
 * The time step a code belongs to, or null. One step of clock drift either way is accepted; a
 * step at or before `lastStep` (already used) is refused, so an overheard code cannot be replayed.
 */
export function verifyTotp(secretBase32: string, code: string, lastStep: number, now = Date.now()): number | null {
  const secret = OTPAuth.Secret.fromBase32(secretBase32);
  const delta = OTPAuth.TOTP.validate({ token: code, secret, period: TOTP_PERIOD, timestamp: now, window: 1 });
  if (delta === null) return null;
  const step = OTPAuth.TOTP.counter({ period: TOTP_PERIOD, timestamp: now }) + delta;
  return step > lastStep ? step : null;
}

/**
 * TOTP secrets at rest: AES-256-GCM under a key derived from JWT_SECRET, so a copy of the
 * database alone does not yield anyone's codes.
 */
export function secretBox(jwtSecret: string) {
  const key = Buffer.from(hkdfSync('sha256', jwtSecret, 'mowerline-totp', 'totp-secret-v1', 32));
  return {
    seal(plain: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
    },
    open(sealed: string): string {
      const [, iv, tag, body] = sealed.split('.');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv!, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag!, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body!, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
