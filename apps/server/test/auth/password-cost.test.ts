import argon2 from 'argon2';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { hashPassword, PASSWORD_HASH_COST, verifyPassword } from '../../src/auth/password.ts';
import { TEST_PASSWORD_HASH_COST } from '../harness.ts';

const base = { jwtSecret: 'test-secret-that-is-long-enough-for-hs256', dataDir: '/nonexistent' };

describe('password hashing cost', () => {
  it('is the argon2id baseline (m=19 MiB, t=2, p=1) unless a test run lowers it', async () => {
    for (const NODE_ENV of ['production', 'development', 'test']) {
      expect(loadConfig({ NODE_ENV }, base).passwordHashCost).toEqual(PASSWORD_HASH_COST);
    }
    const hash = await hashPassword('Str0ng#Mower26', loadConfig({ NODE_ENV: 'production' }, base).passwordHashCost);
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    expect(argon2.needsRehash(hash, { memoryCost: 19_456, timeCost: 2, parallelism: 1 })).toBe(false);
  });

  it('refuses a cost below the baseline outside NODE_ENV=test', () => {
    for (const NODE_ENV of ['production', 'development']) {
      expect(() => loadConfig({ NODE_ENV }, { ...base, passwordHashCost: TEST_PASSWORD_HASH_COST })).toThrow(/tests only/);
      expect(() => loadConfig({ NODE_ENV }, { ...base, passwordHashCost: { memoryCost: 19_456, timeCost: 1 } })).toThrow(/tests only/);
    }
    expect(loadConfig({ NODE_ENV: 'test' }, { ...base, passwordHashCost: TEST_PASSWORD_HASH_COST }).passwordHashCost).toEqual(TEST_PASSWORD_HASH_COST);
  });

  it('verifies at any cost, since the stored hash names its own', async () => {
    const cheap = await hashPassword('Gr33n#Lawns', TEST_PASSWORD_HASH_COST);
    expect(cheap).toMatch(/^\$argon2id\$v=19\$m=256,p=1,t=1\$/);
    expect(await verifyPassword(cheap, 'Gr33n#Lawns', PASSWORD_HASH_COST)).toBe(true);
    expect(await verifyPassword(cheap, 'Gr33n#Lawnz', PASSWORD_HASH_COST)).toBe(false);
    expect(await verifyPassword(undefined, 'Gr33n#Lawns', TEST_PASSWORD_HASH_COST)).toBe(false);
  });
});
