import { sql, type SQL } from 'drizzle-orm';
import type { OtaDeviceState, OtaJobState } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { outboxInsert } from '../events/emit.ts';

/*
 * Every step of a job is one UPDATE guarded by the state it starts from, so running a step twice
 * (a redelivered report, a tick repeated after a restart) changes nothing the second time.
 */

export function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

const IN_FLIGHT = sql`('SENT','DOWNLOADING','DOWNLOADED','VERIFIED','INSTALLING')`;
/** Order of the forward states: a report may only move a job forward. */
const rank = (column: SQL) => sql`array_position(array['QUEUED','SENT','DOWNLOADING','DOWNLOADED','VERIFIED','INSTALLING','SUCCESS']::text[], ${column})`;

const entry = (state: SQL | string, extra: SQL = sql``) =>
  sql`jsonb_build_array(jsonb_build_object('state', ${state}::text, 'at', now(), 'attempt', j.attempt ${extra}))`;

/**
 * A failed attempt: back to QUEUED for a retry while the campaign allows one, else FAILED for good.
 * `where` selects the jobs (by key, or the timed-out ones of a campaign).
 */
async function failAttempts(db: Db, where: SQL, reason: string): Promise<number> {
  // A job that failed for good writes its `ota.job.failed` event in the same statement.
  const result = await db.execute(
    outboxInsert(
      sql`select 'ota.job.failed' as type, 1 as version, f.sn as subject,
        jsonb_build_object('sn', f.sn, 'jobId', f.id, 'campaignId', f.campaign_id, 'version', a.version, 'reason', f.reason,
          'at', to_char(f.finished_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) as payload,
        row_number() over (order by f.id) as ord
        from failed f join ota_artifacts a on a.id = f.artifact_id where f.state = 'FAILED'`,
      sql`failed as (
        update ota_jobs j set
          state = case when j.attempt < c.retries then 'QUEUED' else 'FAILED' end,
          attempt = case when j.attempt < c.retries then j.attempt + 1 else j.attempt end,
          job_key = case when j.attempt < c.retries then null else j.job_key end,
          reason = ${reason},
          deadline = null,
          finished_at = case when j.attempt < c.retries then null else now() end,
          history = j.history || ${entry('FAILED', sql`, 'reason', ${reason}::text`)},
          updated_at = now()
        from ota_campaigns c
        where c.id = j.campaign_id and j.state in ${IN_FLIGHT} and ${where}
        returning j.id, j.sn, j.state, j.campaign_id, j.reason, j.finished_at, c.artifact_id
      )`,
      sql`select (select count(*) from failed)::int as changed`,
    ),
  );
  return rowsOf<{ changed: number }>(result)[0]?.changed ?? 0;
}

export function failByKey(db: Db, jobKey: string, sn: string, reason: string) {
  return failAttempts(db, sql`j.job_key = ${jobKey} and j.sn = ${sn}`, reason);
}

export function expireTimedOut(db: Db, campaignId: number) {
  return failAttempts(db, sql`j.campaign_id = ${campaignId} and j.deadline < now()`, 'TIMEOUT');
}

/** QUEUED → SENT with a fresh key and deadline; undefined when another tick took it first. */
export async function claim(db: Db, jobId: number, jobKey: string, timeoutSeconds: number): Promise<boolean> {
  const result = await db.execute(sql`
    update ota_jobs j set state = 'SENT', job_key = ${jobKey}, progress = 0, reason = '',
      dispatched_at = now(), deadline = now() + make_interval(secs => ${timeoutSeconds}),
      history = j.history || ${entry('SENT')}, updated_at = now()
    where j.id = ${jobId} and j.state = 'QUEUED'
    returning j.id`);
  return rowsOf(result).length === 1;
}

/** The command never reached the device (offline, broker away): back in the queue, no attempt used. */
export async function unclaim(db: Db, jobKey: string): Promise<void> {
  await db.execute(sql`
    update ota_jobs j set state = 'QUEUED', job_key = null, dispatched_at = null, deadline = null,
      history = j.history || ${entry('QUEUED', sql`, 'reason', 'DEVICE_OFFLINE'`)}, updated_at = now()
    where j.job_key = ${jobKey} and j.state = 'SENT'`);
}

/** Ends a QUEUED job without the device: SKIPPED or CANCELLED with a reason, or SUCCESS when it is already current. */
export async function settleQueued(db: Db, jobId: number, state: Extract<OtaJobState, 'SKIPPED' | 'CANCELLED' | 'SUCCESS'>, reason: string): Promise<void> {
  await db.execute(sql`
    update ota_jobs j set state = ${state}, reason = ${reason}, finished_at = now(),
      progress = case when ${state} = 'SUCCESS' then 100 else j.progress end,
      history = j.history || ${entry(state, sql`, 'reason', ${reason}::text`)}, updated_at = now()
    where j.id = ${jobId} and j.state = 'QUEUED'`);
}

/**
 * A forward report from the device. DOWNLOADING may repeat with a higher percentage (the history
 * keeps the first, the row the latest). Returns the campaign id when something changed.
 */
export async function advance(db: Db, jobKey: string, sn: string, state: Exclude<OtaDeviceState, 'FAILED'>, progress: number | undefined): Promise<number | undefined> {
  const pct = state === 'DOWNLOADING' ? (progress ?? 0) : state === 'DOWNLOADED' || state === 'VERIFIED' || state === 'INSTALLING' || state === 'SUCCESS' ? 100 : 0;
  const result = await db.execute(sql`
    update ota_jobs j set
      state = ${state},
      progress = ${pct},
      history = case when j.state = ${state} then j.history else j.history || ${entry(state, sql`, 'progress', ${pct}::int`)} end,
      finished_at = case when ${state} = 'SUCCESS' then now() else j.finished_at end,
      deadline = case when ${state} = 'SUCCESS' then null else j.deadline end,
      updated_at = now()
    where j.job_key = ${jobKey} and j.sn = ${sn}
      and (${rank(sql`j.state`)} < ${rank(sql`${state}::text`)} or (j.state = 'DOWNLOADING' and ${state} = 'DOWNLOADING' and j.progress < ${pct}))
    returning j.campaign_id`);
  return rowsOf<{ campaign_id: number }>(result)[0]?.campaign_id;
}

export async function campaignOfKey(db: Db, jobKey: string): Promise<number | undefined> {
  const result = await db.execute(sql`select campaign_id from ota_jobs where job_key = ${jobKey}`);
  return rowsOf<{ campaign_id: number }>(result)[0]?.campaign_id;
}

/** QUEUED jobs of a cancelled campaign end as CANCELLED; jobs already at the device finish on their own. */
export async function cancelQueued(db: Db, campaignId: number, reason: string): Promise<void> {
  await db.execute(sql`
    update ota_jobs j set state = 'CANCELLED', reason = ${reason}, finished_at = now(),
      history = j.history || ${entry('CANCELLED', sql`, 'reason', ${reason}::text`)}, updated_at = now()
    where j.campaign_id = ${campaignId} and j.state = 'QUEUED'`);
}

export async function countStates(db: Db, campaignIds: number[]): Promise<Map<number, Record<string, number>>> {
  const out = new Map<number, Record<string, number>>();
  if (campaignIds.length === 0) return out;
  const result = await db.execute(sql`
    select campaign_id, state, count(*)::int as n from ota_jobs
    where campaign_id in (${sql.join(campaignIds.map((id) => sql`${id}`), sql`, `)})
    group by campaign_id, state`);
  for (const r of rowsOf<{ campaign_id: number; state: string; n: number }>(result)) {
    const counts = out.get(r.campaign_id) ?? {};
    counts[r.state] = Number(r.n);
    out.set(r.campaign_id, counts);
  }
  return out;
}

/**
 * A device that rebooted into the target but whose SUCCESS report was lost (it came back while
 * this node was restarting, say) shows the new version in its telemetry: that is the version report.
 */
export async function reconcileFromTelemetry(db: Db, campaignId: number): Promise<void> {
  await db.execute(sql`
    update ota_jobs j set state = 'SUCCESS', progress = 100, finished_at = now(), deadline = null,
      history = j.history || ${entry('SUCCESS', sql`, 'reason', 'VERSION_REPORTED'`)}, updated_at = now()
    from device_state ds, ota_campaigns c, ota_artifacts a
    where j.campaign_id = ${campaignId} and j.state = 'INSTALLING' and ds.sn = j.sn and c.id = j.campaign_id
      and a.id = c.artifact_id and a.kind = 'firmware' and ds.firmware = j.to_version and ds.telemetry_at > j.dispatched_at`);
}
