import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { outboxInsert } from '../events/emit.ts';

/** Samples the online count: one row per minute however many nodes sample (the latest sample wins). */
export async function sampleOnline(db: Db, at = new Date()): Promise<void> {
  await db.execute(sql`
    insert into device_online_samples (at, online, total)
    select date_trunc('minute', ${at.toISOString()}::timestamptz),
           (select count(*) from device_state where online),
           (select count(*) from devices)
    on conflict (at) do update set online = excluded.online, total = excluded.total`);
}

/**
 * Marks offline the devices that went silent without a will reaching us (a broker restart, a node
 * that was down): online, and nothing heard for `staleSeconds` although telemetry is due every 60 s.
 */
export async function sweepStale(db: Db, staleSeconds: number): Promise<number> {
  const cutoff = sql`now() - make_interval(secs => ${staleSeconds})`;
  // The indexed last_seen_at (at most LAST_SEEN_RESOLUTION_S behind) finds the candidates; the exact time decides.
  const result = await db.execute(
    wentOffline(sql`update device_state set online = false, online_changed_at = now()
      where online and last_seen_at < ${cutoff} and greatest(last_seen_at, telemetry_received_at) < ${cutoff}
      returning sn, online_changed_at as at`),
  );
  return (result as unknown as { rows: Array<{ emitted: number }> }).rows[0]?.emitted ?? 0;
}

/** An update that set devices offline (returning sn, at), with a `device.disconnected` event for each in the same statement. */
function wentOffline(update: ReturnType<typeof sql>) {
  return outboxInsert(
    sql.raw(`select 'device.disconnected' as type, 1 as version, sn as subject,
      jsonb_build_object('sn', sn, 'at', to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) as payload, 1 as ord from off`),
    sql`off as (${update})`,
  );
}

/** The embedded broker starts empty: nobody is connected, whatever the database remembers. */
export async function markAllOffline(db: Db): Promise<void> {
  await db.execute(wentOffline(sql`update device_state set online = false, online_changed_at = now() where online returning sn, online_changed_at as at`));
}

/** Deletes history older than the retention, in chunks so no statement holds locks for long. */
export async function trimHistory(db: Db, retentionDays: number, chunk = 10_000): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await db.execute(sql`
      with doomed as (
        select ctid from telemetry_history
        where received_at < now() - make_interval(days => ${retentionDays})
        limit ${chunk}
      )
      delete from telemetry_history t using doomed where t.ctid = doomed.ctid`);
    const n = rowCount(result);
    total += n;
    if (n < chunk) return total;
  }
}

/**
 * Embedded PGlite runs no autovacuum: without these, rows that telemetry updates or the retention
 * deletes would never be reclaimed and the planner would never see fresh statistics. Each mower's
 * state row is rewritten with every message, so that table is vacuumed each minute (milliseconds
 * at 10,000 rows); the whole database hourly, after the retention trim.
 */
export async function vacuumHotState(db: Db): Promise<void> {
  await db.execute(sql`vacuum device_state`);
}

export async function vacuumAll(db: Db): Promise<void> {
  await db.execute(sql`vacuum (analyze)`);
}

function rowCount(result: unknown): number {
  const r = result as { rowCount?: number | null; affectedRows?: number };
  return r.rowCount ?? r.affectedRows ?? 0;
}

/** The gateway's periodic work; every node runs it, each statement is safe to run concurrently. */
export function startMaintenance(
  db: Db,
  opts: { staleSeconds: number; retentionDays: number; embedded: boolean; log: { warn(o: object, m: string): void } },
) {
  // Jobs still running when the server stops are awaited, so none outlives the database.
  const running = new Set<Promise<unknown>>();
  const guard = (what: string, job: () => Promise<unknown>) => () => {
    const run = job()
      .catch((err: unknown) => opts.log.warn({ err }, `${what} failed`))
      .finally(() => running.delete(run));
    running.add(run);
  };
  const minutely = guard('device presence upkeep', async () => {
    await sweepStale(db, opts.staleSeconds);
    await sampleOnline(db);
    if (opts.embedded) await vacuumHotState(db);
  });
  const hourly = guard('telemetry retention', async () => {
    await trimHistory(db, opts.retentionDays);
    if (opts.embedded) await vacuumAll(db);
  });
  const timers = [setInterval(minutely, 60_000), setInterval(hourly, 3_600_000), setTimeout(hourly, 30_000)];
  for (const t of timers) t.unref();
  minutely();
  return {
    async stop() {
      timers.forEach((t) => clearInterval(t));
      await Promise.all([...running]);
    },
  };
}
