import { lt, sql } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { formHits } from './auth.sql.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export type AnonymousForm = 'register' | 'forgot';

/**
 * Counts one hit of `scope`/`key` in the current fixed window and answers the count, in one
 * statement (an upsert), so simultaneous requests on several nodes all count.
 */
async function hit(ctx: AppContext, scope: string, key: string, windowMs: number): Promise<number> {
  const windowStart = new Date(Math.floor(Date.now() / windowMs) * windowMs);
  const [row] = await ctx.db
    .insert(formHits)
    .values({ scope, key, windowStart, hits: 1 })
    .onConflictDoUpdate({ target: [formHits.scope, formHits.key, formHits.windowStart], set: { hits: sql`${formHits.hits} + 1` } })
    .returning({ hits: formHits.hits });
  return row?.hits ?? 1;
}

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
