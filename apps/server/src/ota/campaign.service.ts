import { and, count, desc, eq, inArray, like, sql, type SQL } from 'drizzle-orm';
import {
  compareVersions,
  type Campaign,
  type CampaignAction,
  type CampaignCreateBody,
  type CampaignPreview,
  type CampaignTarget,
  type CampaignTargetReport,
  type Page,
} from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { emit, type NewDomainEvent } from '../events/emit.ts';
import { pageOffset, prefixPattern } from '../db/helpers.ts';
import { deviceState, devices, ownerIs } from '../devices/devices.sql.ts';
import { groupSetSql, type GroupSets } from '../device-groups/group-targets.ts';
import { getArtifact } from '../firmware/artifact.service.ts';
import { otaArtifacts, type OtaArtifactRow } from '../firmware/firmware.sql.ts';
import { AppError } from '../http/envelope.ts';
import type { Principal } from '../http/auth.ts';
import { productModels } from '../product/product.sql.ts';
import { cancelQueued, countStates, rowsOf } from './job-steps.ts';
import { otaCampaigns, type OtaCampaignRow } from './ota.sql.ts';
import { versionKey } from './version-key.ts';

/**
 * The devices a target names as rows (sn, firmware, online, skip), all of the artifact's model and
 * enabled, resolved in SQL: a million targets never pass through this process. An SN list names
 * its devices as they are (checkSnList has refused unknown and other-model SNs).
 */
function targetRows(artifact: OtaArtifactRow, target: CampaignTarget, groups: GroupSets): SQL {
  const firmware = sql`coalesce(device_state.firmware, '')`;
  const columns = sql`devices.sn, ${firmware} as firmware, coalesce(device_state.online, false) as online, ${initialSkip(artifact, firmware)} as skip`;
  // Devices in an excluded group are left out whatever the target type.
  const notExcluded = groups.exclude ? sql`devices.sn not in (${groups.exclude})` : undefined;
  if (target.type === 'sns') {
    return sql`select ${columns} from unnest(${sql.param([...new Set(target.sns)])}::text[]) as wanted(sn)
      join devices on devices.sn = wanted.sn left join device_state on device_state.sn = devices.sn
      ${notExcluded ? sql`where ${notExcluded}` : sql``}`;
  }
  const where: SQL[] = [eq(devices.modelId, artifact.modelId), eq(devices.enabled, true)];
  if (notExcluded) where.push(notExcluded);
  if (target.type === 'groups') where.push(sql`devices.sn in (${groups.include})`);
  if (target.type === 'filter') {
    if (target.sn) where.push(like(devices.sn, prefixPattern(target.sn)));
    if (target.region) where.push(eq(devices.region, target.region));
    if (target.owner) where.push(ownerIs(target.owner));
    if (target.firmware) where.push(eq(deviceState.firmware, target.firmware));
  }
  // A range leaves out devices of unknown version ('', or no state row: its key is null).
  if (target.type === 'model' && target.minVersion) where.push(sql`device_state.firmware_key >= ${versionKey(target.minVersion)}`);
  if (target.type === 'model' && target.maxVersion) {
    where.push(sql`device_state.firmware <> ''`, sql`device_state.firmware_key <= ${versionKey(target.maxVersion)}`);
  }
  return sql`select ${columns} from devices left join device_state on device_state.sn = devices.sn where ${and(...where)}`;
}

/** Refuses an SN list naming unknown SNs or SNs of another model, reporting the first 500 of each in list order. */
async function checkSnList(db: Db, artifact: OtaArtifactRow, sns: string[]): Promise<void> {
  const bad = rowsOf<{ sn: string; known: boolean }>(
    await db.execute(sql`
      select wanted.sn, devices.sn is not null as known
      from unnest(${sql.param([...new Set(sns)])}::text[]) with ordinality as wanted(sn, i)
      left join devices on devices.sn = wanted.sn
      where devices.sn is null or devices.model_id <> ${artifact.modelId}
      order by wanted.i`),
  );
  if (bad.length === 0) return;
  const unknown = bad.filter((r) => !r.known).map((r) => r.sn);
  const otherModel = bad.filter((r) => r.known).map((r) => r.sn);
  const report: CampaignTargetReport = { unknown: unknown.slice(0, 500), otherModel: otherModel.slice(0, 500) };
  throw new AppError('CAMPAIGN_BAD_SNS', { count: bad.length }, report);
}

/** Why a device needs no job at all, decided when the campaign is created: SQL, null for none. */
function initialSkip(artifact: OtaArtifactRow, firmware: SQL): SQL {
  if (artifact.kind !== 'firmware') return sql`null::text`;
  const belowMin = artifact.minFromVersion
    ? sql`when ${firmware} <> '' and device_state.firmware_key < ${versionKey(artifact.minFromVersion)} then 'BELOW_MIN_VERSION'`
    : sql``;
  return sql`(case when ${firmware} = ${artifact.version}::text then 'ALREADY_CURRENT' ${belowMin} end)`;
}

/** The artifact and the SQL rows of the devices a body names; refuses what cannot be rolled out. */
async function plan(db: Db, body: CampaignCreateBody): Promise<{ artifact: OtaArtifactRow; targets: SQL }> {
  const { target } = body;
  if (target.type === 'model' && target.minVersion && target.maxVersion && compareVersions(target.minVersion, target.maxVersion) > 0) {
    throw new AppError('CAMPAIGN_VERSION_RANGE', { min: target.minVersion, max: target.maxVersion });
  }
  const { row: artifact } = await getArtifact(db, body.artifactId);
  if (artifact.status !== 'released') throw new AppError('ARTIFACT_NOT_RELEASED');
  if (target.type === 'sns') await checkSnList(db, artifact, target.sns);
  const groups = await groupSetSql(db, target.type === 'groups' ? target.groupIds : [], target.excludeGroupIds ?? []);
  return { artifact, targets: targetRows(artifact, target, groups) };
}

/**
 * What a campaign with this body would do, without creating it: the same target resolution and the
 * same skip rules as creation, counted by reason. An empty target answers zeros (not an error), so
 * the form can show it while the operator is still choosing.
 */
export async function previewCampaign(db: Db, body: CampaignCreateBody): Promise<CampaignPreview> {
  const { targets } = await plan(db, body);
  const [r] = rowsOf<{ total: number; will_update: number; offline: number; already_current: number; below_min_version: number }>(
    await db.execute(sql`
      select count(*)::int as total,
             count(*) filter (where skip is null)::int as will_update,
             count(*) filter (where skip is null and not online)::int as offline,
             count(*) filter (where skip = 'ALREADY_CURRENT')::int as already_current,
             count(*) filter (where skip = 'BELOW_MIN_VERSION')::int as below_min_version
      from (${targets}) t`),
  );
  const skipped: CampaignPreview['skipped'] = {};
  if (Number(r?.already_current) > 0) skipped.ALREADY_CURRENT = Number(r!.already_current);
  if (Number(r?.below_min_version) > 0) skipped.BELOW_MIN_VERSION = Number(r!.below_min_version);
  return { total: Number(r?.total ?? 0), willUpdate: Number(r?.will_update ?? 0), skipped, offline: Number(r?.offline ?? 0) };
}

/**
 * Creates a campaign and its per-device rows in one transaction: one INSERT … SELECT, the rollout
 * order a random permutation drawn in SQL. Queued jobs of older targets of the same kind for these
 * devices are cancelled as SUPERSEDED: each device gets the newest target.
 */
export async function createCampaign(db: Db, body: CampaignCreateBody, who: Principal): Promise<number> {
  const { artifact, targets } = await plan(db, body);

  return db.transaction(async (tx) => {
    // For this transaction only: the rollout order sorts every target in memory instead of in temp
    // files, and a statement that runs once gains nothing from JIT compiling it (at 1,000,000
    // targets both were a second each).
    await tx.execute(sql`set local work_mem = '128MB'`);
    await tx.execute(sql`set local jit = off`);
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
        total: 0,
        createdBy: who.id,
        createdByName: who.username,
      })
      .returning({ id: otaCampaigns.id });
    const id = campaign!.id;
    const state = sql`case when t.skip is null then 'QUEUED' else 'SKIPPED' end`;
    const at = new Date().toISOString();
    // Every queued job starts with the same entry: one constant, not a JSON value built per row.
    const queued = JSON.stringify([{ state: 'QUEUED', at, attempt: 0 }]);
    const [made] = rowsOf<{ n: number }>(
      await tx.execute(sql`
        with made as (
          insert into ota_jobs (campaign_id, sn, ordinal, from_version, to_version, state, reason, finished_at, history)
          select ${id}, t.sn, t.ordinal, t.firmware, ${artifact.version}, ${state}, coalesce(t.skip, ''),
                 case when t.skip is not null then now() end,
                 case when t.skip is null then ${queued}::jsonb
                      else jsonb_build_array(jsonb_build_object('state', 'SKIPPED', 'at', ${at}::text, 'attempt', 0, 'reason', t.skip)) end
          from (
            select r.*, (row_number() over (order by random()) - 1)::int as ordinal from (${targets}) r
            -- Written in SN order (the order stays random in the ordinals): the SN indexes then fill
            -- page by page. The fence (offset 0) sorts the narrow rows, before each gets its history.
            order by r.sn offset 0) t
          returning 1)
        select count(*)::int as n from made`),
    );
    const total = Number(made?.n ?? 0);
    // Thrown inside the transaction: the campaign row goes with it.
    if (total === 0) throw new AppError('CAMPAIGN_NO_TARGETS');
    await tx.update(otaCampaigns).set({ total }).where(eq(otaCampaigns.id, id));
    await supersedeOlder(tx as unknown as Db, id, artifact);
    await emit(tx, { type: 'ota.campaign.created', subject: `campaign:${id}`, payload: { campaignId: id, name: body.name } });
    return id;
  });
}

/**
 * Queued jobs of older versions (same kind, language, model) whose device this campaign now
 * targets. The older campaigns still rolling out are few, so they are found first; the jobs are
 * then one join on the SN with this campaign's queued jobs, which the planner can hash or merge
 * whatever it guesses of the rows just written (it has no statistics for them yet).
 */
async function supersedeOlder(db: Db, campaignId: number, artifact: OtaArtifactRow) {
  const older = rowsOf<{ id: number }>(
    await db.execute(sql`
      select c.id from ota_campaigns c join ota_artifacts a on a.id = c.artifact_id
      where c.id <> ${campaignId} and c.status in ('running','paused')
        and a.kind = ${artifact.kind} and a.language = ${artifact.language} and a.model_id = ${artifact.modelId}
        and ${versionKey(sql`a.version`)} < ${versionKey(artifact.version)}`),
  ).map((r) => r.id);
  if (older.length === 0) return;
  await db.execute(sql`
    update ota_jobs o set state = 'CANCELLED', reason = 'SUPERSEDED', finished_at = now(), updated_at = now(),
      history = o.history || jsonb_build_array(jsonb_build_object('state', 'CANCELLED', 'at', now(), 'attempt', o.attempt, 'reason', 'SUPERSEDED'))
    from ota_jobs n
    where n.campaign_id = ${campaignId} and n.state = 'QUEUED'
      and o.campaign_id = any(${sql.param(older)}::int[]) and o.sn = n.sn and o.state = 'QUEUED'`);
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
  await db.transaction(async (tx) => {
    await changeStatus(tx as unknown as Db, before, action);
    if (action !== 'cancel') {
      const type = action === 'pause' ? ('ota.campaign.paused' as const) : ('ota.campaign.resumed' as const);
      const payload = { campaignId: id, name: before.name, ...(action === 'pause' ? { reason: 'MANUAL' } : {}) };
      await emit(tx, { type, subject: `campaign:${id}`, payload } as NewDomainEvent);
    }
  });
  return { before, after: await getCampaign(db, id) };
}

/** The status step of `changeCampaign`, inside its transaction. */
async function changeStatus(db: Db, before: Campaign, action: CampaignAction): Promise<void> {
  const id = before.id;
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
}
