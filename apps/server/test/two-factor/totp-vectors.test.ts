import * as OTPAuth from 'otpauth';
import { describe, expect, it } from 'vitest';
import { newTotpSecret, secretBox, TOTP_PERIOD, totpCode, verifyTotp } from '../../src/two-factor/totp.ts';
import { hashRecoveryCode, newRecoveryCode } from '../../src/two-factor/recovery-codes.ts';

// RFC 6238 appendix B: the SHA-1 seed, 8 digits, 30-second steps.
const seed = OTPAuth.Secret.fromLatin1('12345678901234567890');
const vectors: [number, string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('TOTP (RFC 6238)', () => {
  it.each(vectors)('at %i s the code is %s', (seconds, code) => {
    expect(totpCode(seed, seconds * 1000, 8)).toBe(code);
  });

  it('accepts a code of this step or one step either side, and never the same step twice', () => {
    const secret = newTotpSecret();
    const now = 1_700_000_000_000;
    const step = Math.floor(now / 1000 / TOTP_PERIOD);
    const code = totpCode(OTPAuth.Secret.fromBase32(secret), now);
    expect(verifyTotp(secret, code, 0, now)).toBe(step);
    expect(verifyTotp(secret, code, step, now)).toBeNull();
    const next = totpCode(OTPAuth.Secret.fromBase32(secret), now + TOTP_PERIOD * 1000);
    expect(verifyTotp(secret, next, step, now)).toBe(step + 1);
    const far = totpCode(OTPAuth.Secret.fromBase32(secret), now + 3 * TOTP_PERIOD * 1000);
    expect(verifyTotp(secret, far, 0, now)).toBeNull();
  });

  it('seals secrets so the database alone does not reveal them', () => {
    const box = secretBox('a-jwt-secret-that-is-long-enough');
    const secret = newTotpSecret();
    const sealed = box.seal(secret);
    expect(sealed).not.toContain(secret);
    expect(box.open(sealed)).toBe(secret);
    expect(() => secretBox('another-secret-of-enough-length').open(sealed)).toThrow();
  });

  it('recovery codes: high entropy, typed back in any case and with or without dashes', () => {
    const codes = new Set(Array.from({ length: 200 }, newRecoveryCode));
    expect(codes.size).toBe(200);
    const code = [...codes][0]!;
    expect(code).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    expect(hashRecoveryCode(code.toUpperCase().replace(/-/g, ' '))).toBe(hashRecoveryCode(code));
  });
});
