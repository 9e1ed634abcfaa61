import type { RateLimitOptions } from '@fastify/rate-limit';
import type { Config } from '../config.ts';
import { AppError } from '../http/envelope.ts';

/**
 * The rate limit of the public account endpoints (sign-in, captcha, forgot/reset password,
 * register) and password change: `loginRateLimitPerMinute` requests per IP and endpoint per minute,
 * counted in the database for all nodes together (rate-limit/shared-store.ts), like the lasting
 * defences (captcha, lock-out).
 */
export function accountRateLimit(config: Pick<Config, 'loginRateLimitPerMinute'>): RateLimitOptions {
  return {
    max: config.loginRateLimitPerMinute,
    timeWindow: 60_000,
    // The plugin throws what this returns; as an AppError it leaves through the one error policy
    // as the RATE_LIMITED envelope (HTTP 429, code 40029), with the plugin's Retry-After header.
    errorResponseBuilder: () => new AppError('RATE_LIMITED'),
  };
}
