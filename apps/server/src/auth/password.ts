import argon2 from 'argon2';

/** The argon2id work factors: memory in KiB and passes. */
export interface PasswordHashCost {
  memoryCost: number;
  timeCost: number;
}

/** OWASP's argon2id baseline (m=19 MiB, t=2, p=1): strong, and quick enough for a sign-in endpoint. */
export const PASSWORD_HASH_COST: PasswordHashCost = { memoryCost: 19_456, timeCost: 2 };

/** True when `cost` is at least the baseline in both factors (anything less is for test runs only). */
export function meetsPasswordBaseline(cost: PasswordHashCost): boolean {
  return cost.memoryCost >= PASSWORD_HASH_COST.memoryCost && cost.timeCost >= PASSWORD_HASH_COST.timeCost;
}

export function hashPassword(password: string, cost: PasswordHashCost): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id, memoryCost: cost.memoryCost, timeCost: cost.timeCost, parallelism: 1 });
}

// One stand-in hash per cost: an unknown username costs what a known one with the same settings does.
const dummyHashes = new Map<string, Promise<string>>();

/**
 * Verifies a password (the cost is read from the stored hash); with no stored hash it still
 * spends the time of one at `cost`, so usernames cannot be probed.
 */
export async function verifyPassword(hash: string | undefined, password: string, cost: PasswordHashCost): Promise<boolean> {
  if (!hash) {
    const key = `${cost.memoryCost}:${cost.timeCost}`;
    let dummy = dummyHashes.get(key);
    if (!dummy) dummyHashes.set(key, (dummy = hashPassword('not-a-real-password-0', cost)));
    await argon2.verify(await dummy, password).catch(() => false);
    return false;
  }
  return argon2.verify(hash, password).catch(() => false);
}
