import { isIPv6 } from 'node:net';
import type { FastifyRequest } from 'fastify';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rateLimitHits } from './rate-limit.sql.ts';

/**
 * A store for @fastify/rate-limit that counts in the database, so N server nodes behind a load
 * balancer enforce one limit together instead of N limits side by side. The plugin
 * keeps everything else: which requests count, the 429 with Retry-After, the allow lists.
 */
export function sharedRateLimitStore(db: Db): FastifyRateLimitStoreCtor {
  class SharedStore implements FastifyRateLimitStore {
    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number): void {
      countHit(db, key, timeWindow).then((result) => callback(null, result), (err: Error) => callback(err));
    }

    /** Every endpoint counts under its own keys (`rateLimitKey`), so one store serves them all. */
    child(): FastifyRateLimitStore {
      return this;
    }
  }
  return SharedStore;
}

/**
 * Counts one request and answers the count in the current window and the milliseconds left of it,
 * in one atomic upsert: simultaneous requests on several nodes each get their own count. Like the
 * plugin's in-memory store, the window starts at the first request and refused requests count too.
 * The application clock decides, as for every other expiry here.
 */
export async function countHit(db: Db, key: string, windowMs: number, now = new Date()): Promise<{ current: number; ttl: number }> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const over = sql`${rateLimitHits.resetAt} <= ${at}`;
  const [row] = await db
    .insert(rateLimitHits)
    .values({ key, hits: 1, resetAt: new Date(now.getTime() + windowMs) })
    .onConflictDoUpdate({
      target: rateLimitHits.key,
      set: {
        // Capped so a flood cannot overflow the int4 counter.
        hits: sql`case when ${over} then 1 else least(${rateLimitHits.hits}, 2147483646) + 1 end`,
        resetAt: sql`case when ${over} then excluded.reset_at else ${rateLimitHits.resetAt} end`,
      },
    })
    .returning({ hits: rateLimitHits.hits, resetAt: rateLimitHits.resetAt });
  if (!row) throw new Error('rate limit counter not returned');
  return { current: row.hits, ttl: Math.max(0, row.resetAt.getTime() - now.getTime()) };
}

/**
 * The counter of one endpoint for one client: the route and the client's address, IPv6 by its /64
 * (one host usually holds the whole prefix) as the plugin's default key does.
 */
export function rateLimitKey(request: FastifyRequest): string {
  return `${request.routeOptions.method as string} ${request.routeOptions.url ?? request.url} ${clientAddress(request.ip)}`;
}

export function clientAddress(ip: string): string {
  if (!isIPv6(ip)) return ip.toLowerCase();
  const bare = ip.split('%')[0]!.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
  if (mapped) return mapped[1]!;
  const groups = (part: string) => (part ? part.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g])) : []);
  const [head = '', tail] = bare.split('::');
  const front = groups(head);
  const all = tail === undefined ? front : [...front, ...Array<string>(8 - front.length - groups(tail).length).fill('0'), ...groups(tail)];
  return `${all.slice(0, 4).map((g) => parseInt(g, 16).toString(16)).join(':')}::/64`;
}

/** Rows of windows that ended count for nothing; every node sweeps them (rate-limit.module.ts). */
export async function sweepEndedWindows(db: Db): Promise<void> {
  await db.delete(rateLimitHits).where(lt(rateLimitHits.resetAt, new Date()));
}
