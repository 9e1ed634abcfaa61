import { randomInt } from 'node:crypto';
import { and, count, desc, eq, inArray, like, sql, type SQL } from 'drizzle-orm';
import {
  compareVersions,
  type Campaign,
  type CampaignAction,
  type CampaignCreateBody,
  type CampaignPreview,
  type CampaignTarget,
  type CampaignTargetReport,
  type OtaJobState,
  type Page,
} from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { pageOffset, prefixPattern } from '../db/helpers.ts';
import { deviceState, devices, ownerIs } from '../devices/devices.sql.ts';
import { getArtifact } from '../firmware/artifact.service.ts';
import { otaArtifacts, type OtaArtifactRow } from '../firmware/firmware.sql.ts';
import { AppError } from '../http/envelope.ts';
import type { Principal } from '../http/auth.ts';
import { productModels } from '../product/product.sql.ts';
import { cancelQueued, countStates, rowsOf } from './job-steps.ts';
import { otaCampaigns, otaJobs, type OtaCampaignRow } from './ota.sql.ts';

const CHUNK = 1000;

interface TargetDevice {
  sn: string;
  firmware: string;
  online: boolean;
}

/** The devices a target names, all of the artifact's model and enabled. SN lists must be clean. */
async function resolveTarget(db: Db, artifact: OtaArtifactRow, target: CampaignTarget): Promise<TargetDevice[]> {
  const base = db
    .select({
      sn: devices.sn,
      modelId: devices.modelId,
      firmware: sql<string>`coalesce(${deviceState.firmware}, '')`,
      online: sql<boolean>`coalesce(${deviceState.online}, false)`,
    })
    .from(devices)
    .leftJoin(deviceState, eq(deviceState.sn, devices.sn));
  if (target.type === 'sns') {
    const wanted = [...new Set(target.sns)];
    const found = new Map<string, { modelId: number; firmware: string; online: boolean }>();
    for (let i = 0; i < wanted.length; i += CHUNK) {
      for (const r of await base.where(inArray(devices.sn, wanted.slice(i, i + CHUNK)))) found.set(r.sn, r);
    }
    const unknown = wanted.filter((sn) => !found.has(sn));
    const otherModel = wanted.filter((sn) => found.has(sn) && found.get(sn)!.modelId !== artifact.modelId);
    if (unknown.length + otherModel.length > 0) {
      const report: CampaignTargetReport = { unknown: unknown.slice(0, 500), otherModel: otherModel.slice(0, 500) };
      throw new AppError('CAMPAIGN_BAD_SNS', { count: unknown.length + otherModel.length }, report);
    }
    return wanted.map((sn) => ({ sn, firmware: found.get(sn)!.firmware, online: found.get(sn)!.online }));
  }
  const where: SQL[] = [eq(devices.modelId, artifact.modelId), eq(devices.enabled, true)];
  if (target.type === 'filter') {
    if (target.sn) where.push(like(devices.sn, prefixPattern(target.sn)));
    if (target.region) where.push(eq(devices.region, target.region));
    if (target.owner) where.push(ownerIs(target.owner));
    if (target.firmware) where.push(eq(deviceState.firmware, target.firmware));
  }
  const rows = await base.where(and(...where)).orderBy(devices.sn);
  if (target.type !== 'model') return rows;
  return rows.filter(
    (r) =>
      (!target.minVersion || (r.firmware !== '' && compareVersions(r.firmware, target.minVersion) >= 0)) &&
      (!target.maxVersion || (r.firmware !== '' && compareVersions(r.firmware, target.maxVersion) <= 0)),
  );
}

/** Why a device needs no job at all, decided when the campaign is created. */
function initialSkip(artifact: OtaArtifactRow, firmware: string): 'ALREADY_CURRENT' | 'BELOW_MIN_VERSION' | undefined {
  if (artifact.kind !== 'firmware') return undefined;
  if (firmware === artifact.version) return 'ALREADY_CURRENT';
  if (artifact.minFromVersion && firmware && compareVersions(firmware, artifact.minFromVersion) < 0) return 'BELOW_MIN_VERSION';
  return undefined;
}

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/** The artifact and the devices a body names; refuses what cannot be rolled out. */
async function plan(db: Db, body: CampaignCreateBody): Promise<{ artifact: OtaArtifactRow; targets: TargetDevice[] }> {
  const { target } = body;
  if (target.type === 'model' && target.minVersion && target.maxVersion && compareVersions(target.minVersion, target.maxVersion) > 0) {
    throw new AppError('CAMPAIGN_VERSION_RANGE', { min: target.minVersion, max: target.maxVersion });
  }
  const { row: artifact } = await getArtifact(db, body.artifactId);
  if (artifact.status !== 'released') throw new AppError('ARTIFACT_NOT_RELEASED');
  return { artifact, targets: await resolveTarget(db, artifact, target) };
}

/**
 * What a campaign with this body would do, without creating it: the same target resolution and the
 * same skip rules as creation, counted by reason. An empty target answers zeros (not an error), so
 * the form can show it while the operator is still choosing.
 */
export async function previewCampaign(db: Db, body: CampaignCreateBody): Promise<CampaignPreview> {
  const { artifact, targets } = await plan(db, body);
  const skipped: CampaignPreview['skipped'] = {};
  let willUpdate = 0;
  let offline = 0;
  for (const t of targets) {
    const skip = initialSkip(artifact, t.firmware);
    if (skip) skipped[skip] = (skipped[skip] ?? 0) + 1;
    else {
      willUpdate++;
      if (!t.online) offline++;
    }
  }
  return { total: targets.length, willUpdate, skipped, offline };
}

/**
 * Creates a campaign and its per-device rows in one transaction. Queued jobs of older targets of
 * the same kind for these devices are cancelled as SUPERSEDED: each device gets the newest target.
 */
export async function createCampaign(db: Db, body: CampaignCreateBody, who: Principal): Promise<number> {
  const { artifact, targets: resolved } = await plan(db, body);
  const targets = shuffle(resolved);
  if (targets.length === 0) throw new AppError('CAMPAIGN_NO_TARGETS');

  return db.transaction(async (tx) => {
    const [campaign] = await tx
      .insert(otaCampaigns)
      .values({
        name: body.name,
        artifactId: artifact.id,
        target: body.target,
        phases: body.phases,
        ratePerMinute: body.ratePerMinute,
        abortFailurePercent: body.abortFailurePercent,
        abortMinFinished: body.abortMinFinished,
        timeoutSeconds: body.timeoutSeconds,
        retries: body.retries,
        soakSeconds: body.soakSeconds,
        successThresholdPercent: body.successThresholdPercent,
        window: body.window,
        total: targets.length,
        createdBy: who.id,
        createdByName: who.username,
      })
      .returning({ id: otaCampaigns.id });
    const id = campaign!.id;
    for (let i = 0; i < targets.length; i += CHUNK) {
      await tx.insert(otaJobs).values(
        targets.slice(i, i + CHUNK).map((t, k) => {
          const skip = initialSkip(artifact, t.firmware);
          const now = new Date().toISOString();
          return {
            campaignId: id,
            sn: t.sn,
            ordinal: i + k,
            fromVersion: t.firmware,
            toVersion: artifact.version,
            state: (skip ? 'SKIPPED' : 'QUEUED') as OtaJobState,
            reason: skip ?? '',
            finishedAt: skip ? new Date() : null,
            history: [{ state: (skip ? 'SKIPPED' : 'QUEUED') as OtaJobState, at: now, attempt: 0, ...(skip ? { reason: skip } : {}) }],
          };
        }),
      );
    }
    await supersedeOlder(tx as unknown as Db, id, artifact);
    return id;
  });
}

async function supersedeOlder(db: Db, campaignId: number, artifact: OtaArtifactRow) {
  const older = rowsOf<{ id: number; version: string }>(
    await db.execute(sql`
      select j.id, a.version from ota_jobs j
      join ota_campaigns c on c.id = j.campaign_id and c.status in ('running','paused') and c.id <> ${campaignId}
      join ota_artifacts a on a.id = c.artifact_id and a.kind = ${artifact.kind} and a.language = ${artifact.language} and a.model_id = ${artifact.modelId}
      where j.state = 'QUEUED' and j.sn in (select sn from ota_jobs where campaign_id = ${campaignId} and state = 'QUEUED')`),
  );
  const ids = older.filter((r) => compareVersions(r.version, artifact.version) < 0).map((r) => Number(r.id));
  for (let i = 0; i < ids.length; i += CHUNK) {
    const part = ids.slice(i, i + CHUNK);
    await db.execute(sql`
      update ota_jobs j set state = 'CANCELLED', reason = 'SUPERSEDED', finished_at = now(), updated_at = now(),
        history = j.history || jsonb_build_array(jsonb_build_object('state', 'CANCELLED', 'at', now(), 'attempt', j.attempt, 'reason', 'SUPERSEDED'))
      where j.state = 'QUEUED' and j.id in (${sql.join(part.map((x) => sql`${x}`), sql`, `)})`);
  }
}

const campaignColumns = { campaign: otaCampaigns, kind: otaArtifacts.kind, version: otaArtifacts.version, modelCode: productModels.code };

function toCampaign(r: { campaign: OtaCampaignRow; kind: 'firmware' | 'voice'; version: string; modelCode: string }, counts: Record<string, number>): Campaign {
  const c = r.campaign;
  return {
    id: c.id,
    name: c.name,
    artifactId: c.artifactId,
    kind: r.kind,
    modelCode: r.modelCode,
    version: r.version,
    status: c.status,
    pauseReason: c.pauseReason,
    target: c.target,
    phases: c.phases,
    phaseIndex: c.phaseIndex,
    ratePerMinute: c.ratePerMinute,
    abortFailurePercent: c.abortFailurePercent,
    abortMinFinished: c.abortMinFinished,
    timeoutSeconds: c.timeoutSeconds,
    retries: c.retries,
    soakSeconds: c.soakSeconds,
    successThresholdPercent: c.successThresholdPercent,
    window: c.window ?? null,
    total: c.total,
    counts,
    waiting: c.status === 'running' && c.waitReason ? { reason: c.waitReason, until: c.waitUntil?.toISOString() ?? null } : null,
    createdBy: c.createdByName,
    createdAt: c.createdAt.toISOString(),
    finishedAt: c.finishedAt?.toISOString() ?? null,
  };
}

function campaignQuery(db: Db) {
  return db
    .select(campaignColumns)
    .from(otaCampaigns)
    .innerJoin(otaArtifacts, eq(otaArtifacts.id, otaCampaigns.artifactId))
    .innerJoin(productModels, eq(productModels.id, otaArtifacts.modelId));
}

export async function listCampaigns(db: Db, query: { page: number; pageSize: number; status?: Campaign['status']; kind?: Campaign['kind'] }): Promise<Page<Campaign>> {
  const where = and(query.status ? eq(otaCampaigns.status, query.status) : undefined, query.kind ? eq(otaArtifacts.kind, query.kind) : undefined);
  const [rows, [total]] = await Promise.all([
    campaignQuery(db).where(where).orderBy(desc(otaCampaigns.id)).limit(query.pageSize).offset(pageOffset(query)),
    db.select({ n: count() }).from(otaCampaigns).innerJoin(otaArtifacts, eq(otaArtifacts.id, otaCampaigns.artifactId)).where(where),
  ]);
  const counts = await countStates(db, rows.map((r) => r.campaign.id));
  return { list: rows.map((r) => toCampaign(r, counts.get(r.campaign.id) ?? {})), total: total?.n ?? 0 };
}

export async function getCampaign(db: Db, id: number): Promise<Campaign> {
  const [row] = await campaignQuery(db).where(eq(otaCampaigns.id, id)).limit(1);
  if (!row) throw new AppError('CAMPAIGN_NOT_FOUND');
  const counts = await countStates(db, [id]);
  return toCampaign(row, counts.get(id) ?? {});
}

const from: Record<CampaignAction, Campaign['status'][]> = { pause: ['running'], resume: ['paused'], cancel: ['running', 'paused'] };
const to: Record<CampaignAction, Campaign['status']> = { pause: 'paused', resume: 'running', cancel: 'cancelled' };

/** pause / resume / cancel, each allowed only from the states that make sense. */
export async function changeCampaign(db: Db, id: number, action: CampaignAction): Promise<{ before: Campaign; after: Campaign }> {
  const before = await getCampaign(db, id);
  if (!from[action].includes(before.status)) throw new AppError('CAMPAIGN_STATE', { status: before.status, action });
  const changed = await db
    .update(otaCampaigns)
    .set({
      status: to[action],
      pauseReason: action === 'pause' ? 'MANUAL' : '',
      ...(action === 'cancel' ? { finishedAt: new Date() } : {}),
      ...(action === 'resume'
        ? { abortBaseFailed: before.counts.FAILED ?? 0, abortBaseFinished: (before.counts.FAILED ?? 0) + (before.counts.SUCCESS ?? 0) }
        : {}),
      // Resuming a phase that missed its success share is the operator's word to go on to the next.
      ...(action === 'resume' && before.pauseReason === 'SUCCESS_THRESHOLD'
        ? { phaseIndex: Math.min(before.phaseIndex + 1, before.phases.length - 1), phaseSettledAt: null }
        : {}),
      waitReason: '',
      waitUntil: null,
    })
    .where(and(eq(otaCampaigns.id, id), inArray(otaCampaigns.status, from[action])))
    .returning({ id: otaCampaigns.id });
  if (changed.length === 0) throw new AppError('CONFLICT');
  if (action === 'cancel') await cancelQueued(db, id, 'CAMPAIGN_CANCELLED');
  return { before, after: await getCampaign(db, id) };
}
