import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { countFormHit, DAY, HOUR } from '../auth/form-limits.service.ts';
import { clientAddress } from '../rate-limit/shared-store.ts';
import { AppError } from '../http/envelope.ts';

/** The app's anonymous forms that mail something to the e-mail they name. */
export type AppMailForm = 'register' | 'resend' | 'forgot';

const QUARTER = 15 * 60_000;

/**
 * The limits of the app's mailing forms, counted in the database (`form_hits`, like the console's
 * forms) so every node counts the same:
 * - per source address and form: `formLimitPerIp` an hour (IPv6 by its /64);
 * - per target mailbox, the three forms together: `appMailLimitPer15Min` per 15 minutes and
 *   `appMailLimitPerDay` a day, whether or not an account uses the address, so a refusal tells
 *   nothing about the account.
 * The mailbox is only counted once the address is within its limit, and the day only once the
 * quarter is, so requests refused at the first limit do not use up the victim's later quota.
 *
 * Guessing a code: a code has 6 digits (10^6 values) and dies after 5 wrong tries
 * (accounts.service.ts); a new code replaces the old one and needs a new request here. So one
 * code allows 5 guesses (success 5 / 10^6 = 5e-6), a mailbox gets at most 10 codes per day
 * window, so at most 50 guesses (5e-5 per day; 1e-4 in any 24 hours, which can touch two
 * windows), and even 100 guesses a day need on average 10^6 / 2 / 100 = 5,000 days.
 *
 * Refused with APP_FORM_LIMITED (429): the seconds to wait in the data and in Retry-After.
 */
export async function requireAppMailAllowed(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, form: AppMailForm, email: string): Promise<void> {
  const windows: Array<() => Promise<{ over: boolean; retryAfterMs: number }>> = [
    async () => over(await countFormHit(ctx, `app-${form}:ip`, clientAddress(request.ip), HOUR), ctx.config.formLimitPerIp),
    async () => over(await countFormHit(ctx, 'app-mail:15m', mailbox(email), QUARTER), ctx.config.appMailLimitPer15Min),
    async () => over(await countFormHit(ctx, 'app-mail:day', mailbox(email), DAY), ctx.config.appMailLimitPerDay),
  ];
  for (const count of windows) {
    const { over: refused, retryAfterMs } = await count();
    if (!refused) continue;
    const retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
    void reply.header('retry-after', String(retryAfterSeconds));
    throw new AppError('APP_FORM_LIMITED', { seconds: retryAfterSeconds }, { retryAfterSeconds });
  }
}

const mailbox = (email: string) => email.trim().toLowerCase();
const over = (counted: { hits: number; retryAfterMs: number }, limit: number) => ({ over: counted.hits > limit, retryAfterMs: counted.retryAfterMs });
