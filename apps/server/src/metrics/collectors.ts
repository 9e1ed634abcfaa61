import { sql } from 'drizzle-orm';
import { Counter, Gauge } from 'prom-client';
import { otaJobStates } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { subscriberStatus } from '../events/status.ts';
import type { Gateway } from '../gateway/gateway.ts';
import { rowsOf } from '../ota/job-steps.ts';
import type { Metrics } from './metrics.ts';

/** Telemetry is due every 60 s while connected: a connected device silent for longer is not reporting. */
export const REPORTING_WINDOW_S = 120;

/**
 * Why the ingest dropped a device message, from the gateway's counter names (gateway/ingest.ts,
 * batch-writer.ts, ingest-limits.ts). A fixed set of label values: a counter name not listed here
 * counts as `other`.
 */
const dropReasons: ReadonlyArray<[prefix: string, reason: string]> = [
  ['dropped.topic', 'topic'],
  ['dropped.oversize', 'oversize'],
  ['dropped.json', 'invalid_json'],
  ['dropped.schema', 'invalid_schema'],
  ['dropped.version', 'protocol_version'],
  ['dropped.unknownDevice', 'unknown_device'],
  ['dropped.limited.', 'rate_limited'],
  ['dropped.rejected.', 'rejected_by_database'],
  ['dropped.writeFailed', 'write_failed'],
  ['dropped.overflow', 'buffer_overflow'],
];
const OTHER = 'other';

/** The ingest's per-node counters as `{outcome, reason}` totals: persisted, or dropped and why. */
export function ingestOutcomes(counters: Record<string, number>): Map<string, number> {
  const totals = new Map<string, number>([['persisted', 0], ...dropReasons.map(([, reason]) => [reason, 0] as [string, number]), [OTHER, 0]]);
  for (const [name, value] of Object.entries(counters)) {
    let key: string | undefined;
    if (name.startsWith('written.')) key = 'persisted';
    else if (name.startsWith('dropped.')) key = dropReasons.find(([prefix]) => name === prefix || (prefix.endsWith('.') && name.startsWith(prefix)))?.[1] ?? OTHER;
    if (key) totals.set(key, totals.get(key)! + value);
  }
  return totals;
}

interface Sources {
  db: Db;
  gateway: Pick<Gateway, 'stats'>;
  log: { warn(o: object, m: string): void };
}

/**
 * The metrics read on scrape: nothing on the ingest's path does work for them. Database gauges are
 * the whole fleet's (the same on every node); the ingest's are this node's. A query that fails
 * leaves its gauges out of this scrape (logged) rather than failing the process metrics with it.
 */
export function registerCollectors(metrics: Metrics, { db, gateway, log }: Sources): void {
  const registers = [metrics.registry];
  const guarded = async (what: string, collect: () => Promise<void>) => {
    try {
      await collect();
    } catch (err) {
      log.warn({ err }, `metrics: could not read ${what}`);
    }
  };

  // One query per scrape for both device gauges: whichever collects first starts it.
  let fleet: Promise<Array<{ model: string; connected: number; reporting: number }>> | undefined;
  const readFleet = () => {
    fleet ??= db
      .execute(
        // Only the online rows (their partial index), joined to the registry for the model.
        sql`select m.code as model, coalesce(c.connected, 0)::int as connected, coalesce(c.reporting, 0)::int as reporting
          from product_models m left join (
            select d.model_id, count(*) as connected,
              count(*) filter (where greatest(s.last_seen_at, s.telemetry_received_at) > now() - make_interval(secs => ${REPORTING_WINDOW_S})) as reporting
            from device_state s join devices d on d.sn = s.sn
            where s.online
            group by d.model_id
          ) c on c.model_id = m.id`,
      )
      .then((r) => rowsOf<{ model: string; connected: number; reporting: number }>(r))
      .finally(() => (fleet = undefined));
    return fleet;
  };

  new Gauge({
    name: 'mowerline_devices_connected',
    help: "Devices connected to the broker by model, as the platform's presence records them (the console's online count)",
    labelNames: ['model'] as const,
    registers,
    async collect() {
      await guarded('connected devices', async () => {
        const rows = await readFleet();
        this.reset();
        for (const r of rows) this.set({ model: r.model }, Number(r.connected));
      });
    },
  });
  new Gauge({
    name: 'mowerline_devices_online',
    help: `Connected devices by model that reported within the last ${REPORTING_WINDOW_S} s (telemetry is due every 60 s)`,
    labelNames: ['model'] as const,
    registers,
    async collect() {
      await guarded('online devices', async () => {
        const rows = await readFleet();
        this.reset();
        for (const r of rows) this.set({ model: r.model }, Number(r.reporting));
      });
    },
  });

  new Counter({
    name: 'mowerline_ingest_messages_total',
    help: 'Device messages this node ingested: persisted, or dropped (reason says why)',
    labelNames: ['outcome', 'reason'] as const,
    registers,
    collect() {
      // The gateway counts as it goes (per batch where it can); copied here on scrape.
      this.reset();
      for (const [key, value] of ingestOutcomes(gateway.stats().counters)) {
        this.inc(key === 'persisted' ? { outcome: 'persisted' } : { outcome: 'dropped', reason: key }, value);
      }
    },
  });
  new Gauge({
    name: 'mowerline_ingest_backlog',
    help: 'Device messages this node accepted and has not written yet',
    registers,
    collect() {
      this.set(gateway.stats().pending);
    },
  });

  new Gauge({
    name: 'mowerline_ota_jobs',
    help: 'OTA jobs of the campaigns still in progress, by state',
    labelNames: ['state'] as const,
    registers,
    async collect() {
      await guarded('OTA jobs', async () => {
        // Finished campaigns are history: only the jobs of open ones (on the campaign/state index).
        const rows = rowsOf<{ state: string; n: number }>(
          await db.execute(sql`select j.state, count(*)::int as n from ota_jobs j
            where j.campaign_id in (select id from ota_campaigns where finished_at is null) group by j.state`),
        );
        this.reset();
        for (const state of otaJobStates) this.set({ state }, 0);
        for (const r of rows) if ((otaJobStates as readonly string[]).includes(r.state)) this.set({ state: r.state }, Number(r.n));
      });
    },
  });

  new Gauge({
    name: 'mowerline_events_lag_seconds',
    help: 'Age of the oldest event not yet delivered to each event-stream subscriber (0 when it is up to date)',
    labelNames: ['subscriber'] as const,
    registers,
    async collect() {
      await guarded('event lag', async () => {
        const subscribers = await subscriberStatus(db);
        const now = Date.now();
        this.reset();
        for (const s of subscribers) {
          const oldest = s.oldestPendingAt ? Date.parse(s.oldestPendingAt) : now;
          this.set({ subscriber: s.name }, Math.max(0, (now - oldest) / 1000));
        }
      });
    },
  });
}
