import { sql } from 'drizzle-orm';
import type { OnlineStats } from '@mowerline/contract';
import type { Db } from '../db/client.ts';

const DAY_MS = 86_400_000;

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** Seconds per bucket so that [from, to] fits in about `points` buckets (at least one minute). */
export function bucketSeconds(fromMs: number, toMs: number, points: number, minimum = 60): number {
  return Math.max(minimum, Math.ceil((toMs - fromMs) / 1000 / points));
}

/** Online now (the partial index of online rows) and the per-minute samples, averaged per bucket. */
export async function onlineStats(db: Db, q: { from?: string; to?: string; points: number }): Promise<OnlineStats> {
  const to = q.to ? new Date(q.to) : new Date();
  const from = q.from ? new Date(q.from) : new Date(to.getTime() - DAY_MS);
  const bucket = bucketSeconds(from.getTime(), to.getTime(), q.points);
  const [now] = rowsOf<{ online: number; total: number }>(
    await db.execute(sql`select (select count(*) from device_state where online)::int as online, (select count(*) from devices)::int as total`),
  );
  const series = rowsOf<{ at: string | Date; online: number; total: number }>(
    await db.execute(sql`
      select to_timestamp(floor(extract(epoch from at) / ${bucket}) * ${bucket}) as at,
             round(avg(online))::int as online, max(total)::int as total
      from device_online_samples
      where at >= ${from.toISOString()}::timestamptz and at <= ${to.toISOString()}::timestamptz
      group by 1 order by 1`),
  );
  return {
    at: new Date().toISOString(),
    online: now?.online ?? 0,
    total: now?.total ?? 0,
    bucketSeconds: bucket,
    series: series.map((s) => ({ at: new Date(s.at).toISOString(), online: s.online, total: s.total })),
  };
}
