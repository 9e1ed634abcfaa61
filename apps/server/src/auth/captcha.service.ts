import { createHmac, randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { lt } from 'drizzle-orm';
import { createChallenge, randomInt, verifySolution, type Challenge, type Solution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { CaptchaResult } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { captchas } from './auth.sql.ts';
import { captchaLevel } from './login-attempts.service.ts';

/**
 * The captcha is an ALTCHA proof of work (docs/api.md "Captcha"): the browser derives PBKDF2 keys
 * until it finds the counter the server picked, which costs the same to a script as to a person,
 * and more with every failure. A challenge is signed and stateless until it is used; its id is
 * then stored, so it works once on every node, and never after it expires.
 */
export const CAPTCHA_TTL_SECONDS = 300;
const ALGORITHM = 'PBKDF2/SHA-256';
/** PBKDF2 iterations per counter value tried. */
const ITERATIONS = 1000;
/** Work doubles with each level up to this one (2^5 = 32 times the first level's). */
const MAX_LEVEL = 6;

/** Secrets of the challenge signatures, derived from the JWT secret so every node shares them. */
function secrets(ctx: AppContext) {
  const derive = (purpose: string) => createHmac('sha256', ctx.config.jwtSecret).update(`altcha:${purpose}`).digest('hex');
  return { hmacSignatureSecret: derive('challenge'), hmacKeySignatureSecret: derive('key') };
}

/**
 * Highest counter of a level: the solver tries counters from 0 up, so this is the work. Level n
 * picks its counter in (max(n-1), max(n)], so each level costs at least as much as the one below.
 */
export function counterCeiling(ctx: AppContext, level: number): number {
  return ctx.config.captchaWork * 2 ** (Math.min(Math.max(level, 1), MAX_LEVEL) - 1);
}

/**
 * POST /api/admin/user/verification-code: a challenge whose level follows the failures of the
 * username asked for (if given) and of the caller's address; a sign-in only takes a challenge of
 * at least the level it needs then, so asking with another username buys nothing.
 */
export async function createCaptcha(ctx: AppContext, request: FastifyRequest, body?: { username?: string } | null): Promise<CaptchaResult> {
  const level = Math.min(Math.max(await captchaLevel(ctx, (body?.username ?? '').toLowerCase(), request.ip), 1), MAX_LEVEL);
  const challenge = await issueChallenge(ctx, level, new Date(Date.now() + CAPTCHA_TTL_SECONDS * 1000));
  return { challenge, level, expiresIn: CAPTCHA_TTL_SECONDS };
}

/** A signed challenge of `level` that expires at `expiresAt`. */
export async function issueChallenge(ctx: AppContext, level: number, expiresAt: Date): Promise<CaptchaResult['challenge']> {
  const ceiling = counterCeiling(ctx, level);
  const floor = level <= 1 ? 0 : counterCeiling(ctx, level - 1);
  const challenge = await createChallenge({
    algorithm: ALGORITHM,
    cost: ITERATIONS,
    counter: randomInt(ceiling, floor + 1),
    deriveKey,
    expiresAt,
    data: { id: randomUUID(), level },
    ...secrets(ctx),
  });
  return challenge as CaptchaResult['challenge'];
}

interface Payload {
  challenge: Challenge;
  solution: Solution;
}

function decode(payload: string): Payload | undefined {
  try {
    const parsed = JSON.parse(Buffer.from(payload, 'base64').toString('utf8')) as Partial<Payload>;
    const c = parsed.challenge;
    const s = parsed.solution;
    if (!c || typeof c !== 'object' || !c.parameters || typeof c.parameters !== 'object' || typeof c.signature !== 'string') return undefined;
    if (!s || typeof s !== 'object' || !Number.isSafeInteger(s.counter) || typeof s.derivedKey !== 'string') return undefined;
    return { challenge: c, solution: s };
  } catch {
    return undefined;
  }
}

/**
 * Uses up a solved challenge (the widget's payload): true when it is ours, unexpired, unused,
 * solved, and of at least `minLevel`. A payload that passes the checks is spent even if the
 * sign-in then fails, like any single-use code.
 */
export async function solveCaptcha(ctx: AppContext, payload: string, minLevel: number): Promise<boolean> {
  const decoded = decode(payload);
  if (!decoded) return false;
  const { challenge, solution } = decoded;
  // Only our algorithm and cost: the signature covers them, this also keeps foreign parameters
  // from ever reaching the key derivation.
  const p = challenge.parameters;
  if (p.algorithm !== ALGORITHM || p.cost !== ITERATIONS || p.keyLength !== 32) return false;
  const id = p.data?.id;
  const level = p.data?.level;
  if (typeof id !== 'string' || !/^[0-9a-f-]{36}$/.test(id) || typeof level !== 'number') return false;
  let verified = false;
  try {
    verified = (await verifySolution({ challenge, solution, deriveKey, ...secrets(ctx) })).verified;
  } catch {
    return false;
  }
  if (!verified || level < Math.min(minLevel, MAX_LEVEL)) return false;
  const now = new Date();
  // Expired challenges are refused by their signed expiry; their rows are no longer needed.
  await ctx.db.delete(captchas).where(lt(captchas.expiresAt, now));
  const used = await ctx.db
    .insert(captchas)
    .values({ id, expiresAt: new Date((p.expiresAt ?? now.getTime() / 1000) * 1000), usedAt: now })
    .onConflictDoNothing()
    .returning({ id: captchas.id });
  return used.length === 1;
}
