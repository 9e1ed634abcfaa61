import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import {
  compareVersions,
  deviceStatusSchema,
  OTA_PROGRESS_TOPIC,
  OTA_START_COMMAND,
  otaProgressSchema,
  otaStartResultSchema,
  parseDeviceTopic,
  TOPIC_ROOT,
  type CampaignStatus,
  type CampaignWaitReason,
  type OtaStartArgs,
} from '@mowerline/contract';
import type { Config } from '../config.ts';
import type { Database, Db } from '../db/client.ts';
import { otaArtifacts, type OtaArtifactRow } from '../firmware/firmware.sql.ts';
import type { UrlSigner } from '../firmware/signing.ts';
import type { Gateway } from '../gateway/gateway.ts';
import { CommandError } from '../gateway/commands.ts';
import { emit } from '../events/emit.ts';
import { productModels } from '../product/product.sql.ts';
import { createBoss } from './boss.ts';
import { advance, campaignOfKey, claim, countStates, expireTimedOut, failByKey, reconcileFromTelemetry, rowsOf, settleQueued, unclaim } from './job-steps.ts';
import { otaCampaigns, type OtaCampaignRow } from './ota.sql.ts';
import { parseBoundedJson } from '../gateway/bounded-json.ts';

type Log = { info(o: object, m: string): void; warn(o: object, m: string): void };

const QUEUE = 'ota-campaign-tick';
/** How long the device has to accept `ota.start` (it answers before downloading anything). */
const ACCEPT_TIMEOUT_MS = 15_000;

interface Loaded {
  campaign: OtaCampaignRow;
  artifact: OtaArtifactRow;
  modelCode: string;
}

/**
 * Drives running campaigns. Each campaign is advanced by a pg-boss job (one queued and one active
 * at most per campaign: policy `stately`), which re-schedules itself while the campaign runs; the
 * per-device rows are the truth, so after a restart the next tick simply carries on. Device
 * reports arrive on `…/ota/progress`; a device coming online nudges the campaigns waiting for it.
 */
export class OtaEngine {
  private boss: PgBoss | undefined;
  private readonly unlisten: Array<() => Promise<void>> = [];
  private readonly cameOnline = new Set<string>();
  private readonly rateLimited = new Set<number>();
  private readonly reports = new Map<string, Promise<void>>();
  private onlineTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly deps: { database: Database; db: Db; gateway: Gateway; config: Config; urls: UrlSigner; log: Log },
  ) {
  }

  async start(): Promise<void> {
    const boss = createBoss(this.deps.database);
    boss.on('error', (err: unknown) => this.deps.log.warn({ err }, 'OTA job queue error'));
    await boss.start();
    await createQueueRetryingDeadlock(() => boss.createQueue(QUEUE, { name: QUEUE, policy: 'stately', retryLimit: 0, expireInSeconds: 300 }));
    this.boss = boss;
    await boss.work<{ campaignId: number }>(QUEUE, { pollingIntervalSeconds: 0.5, batchSize: 8 }, async (jobs) => {
      await Promise.all(jobs.map((job) => this.runTick(job.data.campaignId)));
    });
    const { gateway } = this.deps;
    this.unlisten.push(await gateway.listen(`${TOPIC_ROOT}/+/${OTA_PROGRESS_TOPIC}`, (topic, payload) => this.onProgress(topic, payload)));
    this.unlisten.push(await gateway.listen(`${TOPIC_ROOT}/+/status`, (topic, payload) => this.onStatus(topic, payload)));
    // After a restart: every running campaign continues where its rows say it is.
    const running = await this.deps.db.select({ id: otaCampaigns.id }).from(otaCampaigns).where(eq(otaCampaigns.status, 'running'));
    for (const c of running) await this.nudge(c.id);
  }

  async stop(): Promise<void> {
    clearTimeout(this.onlineTimer);
    this.onlineTimer = undefined;
    for (const undo of this.unlisten.splice(0)) await undo().catch(() => {});
    await this.boss?.stop({ graceful: true, wait: true, timeout: 3000 }).catch(() => {});
    this.boss = undefined;
  }

  /** Schedules a tick for a campaign (a no-op when one is already waiting). */
  async nudge(campaignId: number, delayMs = 0): Promise<void> {
    if (!this.boss) return;
    await this.boss.send(QUEUE, { campaignId }, { singletonKey: String(campaignId), startAfter: new Date(Date.now() + delayMs) });
  }

  private async runTick(campaignId: number): Promise<void> {
    let again = false;
    try {
      again = await this.tick(campaignId);
    } catch (err) {
      this.deps.log.warn({ err, campaignId }, 'OTA campaign tick failed; will retry');
      again = true;
    }
    // Held back by the rate limit: look again within the second rather than a whole tick later.
    const delay = this.rateLimited.delete(campaignId) ? Math.min(this.deps.config.otaTickMs, 1000) : this.deps.config.otaTickMs;
    if (again) await this.nudge(campaignId, delay).catch(() => {});
  }

  /** One step of a running campaign; false when it no longer runs. */
  async tick(campaignId: number): Promise<boolean> {
    const { db } = this.deps;
    const loaded = await this.load(campaignId);
    if (!loaded || loaded.campaign.status !== 'running') return false;
    const { campaign } = loaded;
    await reconcileFromTelemetry(db, campaign.id);
    await expireTimedOut(db, campaign.id);

    const counts = (await countStates(db, [campaign.id])).get(campaign.id) ?? {};
    // Only what happened since the last resume counts: an operator who resumes accepts the past.
    const failed = (counts.FAILED ?? 0) - campaign.abortBaseFailed;
    const finished = (counts.FAILED ?? 0) + (counts.SUCCESS ?? 0) - campaign.abortBaseFinished;
    if (failed > 0 && finished >= campaign.abortMinFinished && failed * 100 >= campaign.abortFailurePercent * finished) {
      const paused = await db.transaction(async (tx) => {
        const rows = await tx
          .update(otaCampaigns)
          .set({ status: 'paused', pauseReason: 'ABORT_THRESHOLD' })
          .where(and(eq(otaCampaigns.id, campaign.id), eq(otaCampaigns.status, 'running')))
          .returning({ id: otaCampaigns.id });
        if (rows.length > 0) {
          await emit(tx, { type: 'ota.campaign.paused', subject: `campaign:${campaign.id}`, payload: { campaignId: campaign.id, name: campaign.name, reason: 'ABORT_THRESHOLD', failed, finished } });
        }
        return rows;
      });
      if (paused.length > 0) {
        this.deps.log.warn({ campaignId, failed, finished }, 'OTA campaign paused: failure threshold reached');
      }
      return false;
    }
    const open = (counts.QUEUED ?? 0) + (counts.SENT ?? 0) + (counts.DOWNLOADING ?? 0) + (counts.DOWNLOADED ?? 0) + (counts.VERIFIED ?? 0) + (counts.INSTALLING ?? 0);
    if (open === 0) {
      // Every job ended: the state says how it ended, and the last phase is where it stands.
      const status = endState(counts);
      await db.transaction(async (tx) => {
        const ended = await tx
          .update(otaCampaigns)
          .set({ status, finishedAt: new Date(), phaseIndex: campaign.phases.length - 1, waitReason: '', waitUntil: null })
          .where(and(eq(otaCampaigns.id, campaign.id), eq(otaCampaigns.status, 'running')))
          .returning({ id: otaCampaigns.id });
        if (ended.length > 0) {
          await emit(tx, { type: 'ota.campaign.completed', subject: `campaign:${campaign.id}`, payload: { campaignId: campaign.id, name: campaign.name, status } });
        }
      });
      return false;
    }

    const phase = await this.currentPhase(campaign);
    if (phase.paused) return false;
    let wait: Wait = phase.wait ?? { reason: '', until: null };
    if (!inWindow(campaign.window, new Date())) wait = phase.wait ?? { reason: 'window', until: null };
    else {
      const sent = await this.dispatch(loaded, phase.cutoff);
      if (!phase.wait) wait = sent;
    }
    if (wait.reason === 'rate_limit') this.rateLimited.add(campaign.id);
    if (wait.reason !== campaign.waitReason || wait.until?.getTime() !== campaign.waitUntil?.getTime()) {
      await db.update(otaCampaigns).set({ waitReason: wait.reason, waitUntil: wait.until }).where(eq(otaCampaigns.id, campaign.id));
    }
    return true;
  }

  /**
   * The phase the rollout is in. The next phase starts once nothing of the current one is in flight
   * or waiting on an online device, its success share is reached (when one is required), and it has
   * stayed so for the soak time. A phase that can no longer reach its share pauses the campaign.
   */
  private async currentPhase(campaign: OtaCampaignRow): Promise<{ cutoff: number; wait?: Wait; paused?: boolean }> {
    const { db } = this.deps;
    let index = campaign.phaseIndex;
    let settledAt = campaign.phaseSettledAt;
    const cutoffOf = (i: number) => Math.ceil((campaign.total * campaign.phases[i]!) / 100);
    let wait: Wait | undefined;
    while (index < campaign.phases.length - 1) {
      const pending = await db.execute(sql`
        select 1 from ota_jobs j left join device_state ds on ds.sn = j.sn
        where j.campaign_id = ${campaign.id} and j.ordinal < ${cutoffOf(index)}
          and (j.state in ('SENT','DOWNLOADING','DOWNLOADED','VERIFIED','INSTALLING') or (j.state = 'QUEUED' and coalesce(ds.online, false)))
        limit 1`);
      if (rowsOf(pending).length > 0) {
        // Work appeared again (a device of the phase came online): the soak starts over afterwards.
        settledAt = null;
        break;
      }
      if (campaign.successThresholdPercent > 0) {
        const [share] = rowsOf<{ success: number; eligible: number; queued: number }>(
          await db.execute(sql`
            select count(*) filter (where state = 'SUCCESS')::int as success,
                   count(*) filter (where state not in ('SKIPPED','CANCELLED'))::int as eligible,
                   count(*) filter (where state = 'QUEUED')::int as queued
            from ota_jobs where campaign_id = ${campaign.id} and ordinal < ${cutoffOf(index)}`),
        );
        const { success = 0, eligible = 0, queued = 0 } = share ?? {};
        const needed = campaign.successThresholdPercent * eligible;
        if (success * 100 < needed) {
          if ((success + queued) * 100 < needed) {
            await this.pauseForThreshold(campaign, index, success, eligible);
            return { cutoff: cutoffOf(index), paused: true };
          }
          // Enough devices are still queued (offline) to reach the share: wait for them.
          wait = { reason: 'success_threshold', until: null };
          settledAt = null;
          break;
        }
      }
      if (campaign.soakSeconds > 0) {
        settledAt ??= new Date();
        const until = new Date(settledAt.getTime() + campaign.soakSeconds * 1000);
        if (until.getTime() > Date.now()) {
          wait = { reason: 'soak', until };
          break;
        }
      }
      index++;
      settledAt = null;
    }
    if (index !== campaign.phaseIndex || settledAt?.getTime() !== campaign.phaseSettledAt?.getTime()) {
      await db.update(otaCampaigns).set({ phaseIndex: index, phaseSettledAt: settledAt }).where(eq(otaCampaigns.id, campaign.id));
    }
    return { cutoff: cutoffOf(index), wait };
  }

  private async pauseForThreshold(campaign: OtaCampaignRow, index: number, success: number, eligible: number): Promise<void> {
    const paused = await this.deps.db
      .update(otaCampaigns)
      .set({ status: 'paused', pauseReason: 'SUCCESS_THRESHOLD', phaseIndex: index, waitReason: '', waitUntil: null })
      .where(and(eq(otaCampaigns.id, campaign.id), eq(otaCampaigns.status, 'running')))
      .returning({ id: otaCampaigns.id });
    if (paused.length > 0) {
      this.deps.log.warn({ campaignId: campaign.id, phase: index + 1, success, eligible }, 'OTA campaign paused: phase below its success threshold');
    }
  }

  /**
   * Starts jobs of online devices in the current phases within the rate limit, and says what the
   * rollout waits for afterwards: the limit, the devices at work, or devices that are offline.
   */
  private async dispatch(loaded: Loaded, cutoff: number): Promise<Wait> {
    const { db } = this.deps;
    const { campaign } = loaded;
    const [recent] = rowsOf<{ second: number; minute: number }>(
      await db.execute(sql`
        select count(*) filter (where dispatched_at > clock_timestamp() - interval '1 second')::int as second, count(*)::int as minute
        from ota_jobs where campaign_id = ${campaign.id} and dispatched_at > clock_timestamp() - interval '60 seconds'`),
    );
    const budget = rateBudget(campaign.ratePerMinute, Number(recent?.second ?? 0), Number(recent?.minute ?? 0));
    // One more than the budget: whether the limit holds anything back.
    const candidates = rowsOf<{ id: number; sn: string; attempt: number; firmware: string | null }>(
      await db.execute(sql`
        select j.id, j.sn, j.attempt, ds.firmware from ota_jobs j join device_state ds on ds.sn = j.sn and ds.online
        where j.campaign_id = ${campaign.id} and j.state = 'QUEUED' and j.ordinal < ${cutoff}
        order by j.ordinal limit ${budget + 1}`),
    );
    const now = candidates.slice(0, budget);
    await Promise.all(now.map((job) => this.startJob(loaded, job).catch((err: unknown) => this.deps.log.warn({ err, sn: job.sn }, 'could not start an OTA job'))));
    if (candidates.length > budget) return { reason: 'rate_limit', until: null };
    if (now.length > 0) return { reason: '', until: null };
    const [inFlight] = rowsOf<{ n: number }>(
      await db.execute(sql`select count(*)::int as n from ota_jobs where campaign_id = ${campaign.id} and state in ('SENT','DOWNLOADING','DOWNLOADED','VERIFIED','INSTALLING')`),
    );
    return { reason: Number(inFlight?.n ?? 0) > 0 ? 'devices' : 'offline', until: null };
  }

  private async startJob(loaded: Loaded, job: { id: number; sn: string; attempt: number; firmware: string | null }): Promise<void> {
    const { db, gateway, urls } = this.deps;
    const { campaign, artifact, modelCode } = loaded;
    const current = job.firmware ?? '';
    if (artifact.kind === 'firmware') {
      // Telemetry already shows the target: a lost SUCCESS report on a retry, or nothing to do.
      if (current === artifact.version) return settleQueued(db, job.id, job.attempt > 0 ? 'SUCCESS' : 'SKIPPED', job.attempt > 0 ? '' : 'ALREADY_CURRENT');
      if (artifact.minFromVersion && current && compareVersions(current, artifact.minFromVersion) < 0) return settleQueued(db, job.id, 'SKIPPED', 'BELOW_MIN_VERSION');
    }
    if (await this.newerTargetExists(artifact, job.sn)) return settleQueued(db, job.id, 'SKIPPED', 'NEWER_TARGET');

    const jobKey = randomBytes(12).toString('base64url');
    if (!(await claim(db, job.id, jobKey, campaign.timeoutSeconds))) return;
    const link = urls.url(artifact.id, job.sn);
    const args: OtaStartArgs = {
      jobId: jobKey,
      kind: artifact.kind,
      model: modelCode,
      language: artifact.language,
      version: artifact.version,
      url: link.url,
      urlExpiresAt: link.expiresAt,
      size: artifact.size,
      sha256: artifact.sha256,
      signature: artifact.signature,
    };
    try {
      const result = otaStartResultSchema.safeParse(await gateway.sendCommand(job.sn, OTA_START_COMMAND, args, ACCEPT_TIMEOUT_MS));
      if (result.success && result.data.state === 'SUCCESS') await advance(db, jobKey, job.sn, 'SUCCESS', 100);
      else if (result.success && !result.data.accepted) await failByKey(db, jobKey, job.sn, 'REJECTED');
    } catch (err) {
      if (!(err instanceof CommandError)) throw err;
      if (err.reason === 'offline' || err.reason === 'unavailable') await unclaim(db, jobKey);
      else if (err.reason === 'device') await failByKey(db, jobKey, job.sn, err.device?.code === 'BUSY' ? 'BUSY' : 'REJECTED');
      // A timeout leaves the job SENT: the device may still have it, and the per-device timeout decides.
    }
  }

  /** A device only ever receives the newest applicable target: another open campaign may carry a newer one. */
  private async newerTargetExists(artifact: OtaArtifactRow, sn: string): Promise<boolean> {
    const rows = rowsOf<{ version: string }>(
      await this.deps.db.execute(sql`
        select a.version from ota_jobs j
        join ota_campaigns c on c.id = j.campaign_id and c.status in ('running','paused')
        join ota_artifacts a on a.id = c.artifact_id
        where j.sn = ${sn} and j.state not in ('SUCCESS','FAILED','SKIPPED','CANCELLED')
          and a.kind = ${artifact.kind} and a.language = ${artifact.language} and a.id <> ${artifact.id}`),
    );
    return rows.some((r) => compareVersions(r.version, artifact.version) > 0);
  }

  private async load(campaignId: number): Promise<Loaded | undefined> {
    const [row] = await this.deps.db
      .select({ campaign: otaCampaigns, artifact: otaArtifacts, modelCode: productModels.code })
      .from(otaCampaigns)
      .innerJoin(otaArtifacts, eq(otaArtifacts.id, otaCampaigns.artifactId))
      .innerJoin(productModels, eq(productModels.id, otaArtifacts.modelId))
      .where(eq(otaCampaigns.id, campaignId))
      .limit(1);
    return row;
  }

  /**
   * A device's reports are applied one after another in arrival order (MQTT keeps a client's QoS 1
   * order; running them concurrently would let FAILED overtake DOWNLOADED).
   */
  private onProgress(topic: string, payload: Buffer): void {
    const where = parseDeviceTopic(topic);
    if (!where || where.suffix !== OTA_PROGRESS_TOPIC) return;
    const previous = this.reports.get(where.sn) ?? Promise.resolve();
    const next = previous.then(() => this.applyProgress(where.sn, topic, payload));
    this.reports.set(where.sn, next);
    void next.finally(() => {
      if (this.reports.get(where.sn) === next) this.reports.delete(where.sn);
    });
  }

  /** Never throws: a bad message is dropped, like every upstream message. */
  private async applyProgress(sn: string, topic: string, payload: Buffer): Promise<void> {
    try {
      const parsed = otaProgressSchema.safeParse(parseBoundedJson(payload));
      if (!parsed.success) return;
      const report = parsed.data;
      const { db } = this.deps;
      let campaignId: number | undefined;
      if (report.state === 'FAILED') {
        const changed = await failByKey(db, report.jobId, sn, report.reason ?? 'INSTALL_FAILED');
        if (changed > 0) campaignId = await campaignOfKey(db, report.jobId);
      } else {
        campaignId = await advance(db, report.jobId, sn, report.state, report.progress);
      }
      // A job ended: let the campaign move on without waiting for its next scheduled tick.
      if (campaignId !== undefined && (report.state === 'SUCCESS' || report.state === 'FAILED')) await this.nudge(campaignId);
    } catch (err) {
      this.deps.log.warn({ err, topic }, 'dropped an OTA progress report');
    }
  }

  /**
   * A device came online: the campaigns holding a queued job for it get a tick soon (after the
   * presence write). SNs are gathered for a moment and looked up together, so a reconnect storm
   * (or the retained presence a fresh subscription replays) costs a few queries, not one per device.
   */
  private onStatus(topic: string, payload: Buffer): void {
    const where = parseDeviceTopic(topic);
    if (!where) return;
    let online = false;
    try {
      online = deviceStatusSchema.safeParse(parseBoundedJson(payload)).data?.online ?? false;
    } catch {
      return;
    }
    if (!online) return;
    this.cameOnline.add(where.sn);
    this.onlineTimer ??= setTimeout(() => void this.wakeCampaigns(), this.deps.config.telemetryFlushMs + 250);
  }

  private async wakeCampaigns(): Promise<void> {
    this.onlineTimer = undefined;
    const sns = [...this.cameOnline];
    this.cameOnline.clear();
    try {
      const campaigns = new Set<number>();
      for (let i = 0; i < sns.length; i += 1000) {
        const part = sns.slice(i, i + 1000);
        const rows = rowsOf<{ campaign_id: number }>(
          await this.deps.db.execute(sql`
            select distinct j.campaign_id from ota_jobs j join ota_campaigns c on c.id = j.campaign_id and c.status = 'running'
            where j.state = 'QUEUED' and j.sn in (${sql.join(part.map((sn) => sql`${sn}`), sql`, `)})`),
        );
        for (const r of rows) campaigns.add(r.campaign_id);
      }
      for (const id of campaigns) await this.nudge(id);
    } catch (err) {
      this.deps.log.warn({ err }, 'could not react to devices coming online');
    }
  }
}

type Wait = { reason: CampaignWaitReason | ''; until: Date | null };

/** How an ended campaign ended: any failure shows, and so does a rollout that updated nobody. */
export function endState(counts: Partial<Record<string, number>>): CampaignStatus {
  if ((counts.FAILED ?? 0) > 0) return 'completed_with_failures';
  if ((counts.SUCCESS ?? 0) === 0) return 'completed_none';
  return 'completed';
}

/**
 * How many jobs may start now under a limit of `perMinute`: at most that many in any 60 seconds,
 * and spread out, at most ceil(perMinute / 60) in any second, so 60/min is one a second and not
 * sixty at once.
 */
export function rateBudget(perMinute: number, sentLastSecond: number, sentLastMinute: number): number {
  const perSecond = Math.ceil(perMinute / 60);
  return Math.max(0, Math.min(perSecond - sentLastSecond, perMinute - sentLastMinute));
}

/** Daily window in UTC; end before start spans midnight. */
export function inWindow(window: { start: string; end: string } | null, now: Date): boolean {
  if (!window) return true;
  const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
  const m = now.getUTCHours() * 60 + now.getUTCMinutes();
  const start = minutes(window.start);
  const end = minutes(window.end);
  return start <= end ? m >= start && m < end : m >= start || m < end;
}

/**
 * Two nodes starting together on an empty database can deadlock inside pg-boss's createQueue
 * (PostgreSQL aborts one of them with 40P01). The survivor creates the queue, so the loser's retry
 * finds it there; without the retry that node would exit.
 */
export async function createQueueRetryingDeadlock(create: () => Promise<void>, attempts = 3): Promise<void> {
  for (let i = 1; ; i++) {
    try {
      return await create();
    } catch (err) {
      if (i >= attempts || (err as { code?: string }).code !== '40P01') throw err;
      await new Promise((resolve) => setTimeout(resolve, 100 * i));
    }
  }
}
