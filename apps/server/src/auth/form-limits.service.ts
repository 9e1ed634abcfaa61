import { lt, sql } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { formHits } from './auth.sql.ts';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

export type AnonymousForm = 'register' | 'forgot';

/**
 * Counts one hit of `scope`/`key` in the current fixed window and answers the count and the
 * milliseconds left of the window, in one statement (an upsert), so simultaneous requests on
 * several nodes all count.
 */
export async function countFormHit(ctx: AppContext, scope: string, key: string, windowMs: number): Promise<{ hits: number; retryAfterMs: number }> {
  const now = Date.now();
  const windowStart = new Date(Math.floor(now / windowMs) * windowMs);
  const [row] = await ctx.db
    .insert(formHits)
    .values({ scope, key, windowStart, hits: 1 })
    .onConflictDoUpdate({ target: [formHits.scope, formHits.key, formHits.windowStart], set: { hits: sql`${formHits.hits} + 1` } })
    .returning({ hits: formHits.hits });
  return { hits: row?.hits ?? 1, retryAfterMs: windowStart.getTime() + windowMs - now };
}

const hit = async (ctx: AppContext, scope: string, key: string, windowMs: number) => (await countFormHit(ctx, scope, key, windowMs)).hits;

/**
 * One request of an anonymous form from `ip`: false once the address has sent `formLimitPerIp`
 * of this form within the hour. Every request counts, refused ones too.
 */
export async function formAllowedFromIp(ctx: AppContext, form: AnonymousForm, ip: string): Promise<boolean> {
  return (await hit(ctx, `${form}:ip`, ip, HOUR)) <= ctx.config.formLimitPerIp;
}

/** One request of an anonymous form aimed at `email` (a mailbox): false beyond `formLimitPerEmail` a day. */
export async function formAllowedForEmail(ctx: AppContext, form: AnonymousForm, email: string): Promise<boolean> {
  return (await hit(ctx, `${form}:email`, email.trim().toLowerCase(), DAY)) <= ctx.config.formLimitPerEmail;
}

/** Windows that ended are no longer counted; their rows go with the sign-in attempts' retention. */
export async function pruneFormHits(ctx: AppContext): Promise<void> {
  await ctx.db.delete(formHits).where(lt(formHits.windowStart, new Date(Date.now() - 2 * DAY)));
}
