import { and, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { RunReport, ZonesReport } from '@mowerline/contract';
import { eventSubject } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { devices, deviceState } from '../devices/devices.sql.ts';
import { productModels } from '../product/product.sql.ts';
import type { Tx } from './schedules.service.ts';
import { taskRollups, taskRunEvents, taskRuns, taskSchedules, taskZones, type TaskRunRow } from './tasks.sql.ts';
import { emit } from '../events/emit.ts';

/** Roll-up buckets are 15 minutes: every time zone's offset is a multiple of it. */
export const BUCKET_MS = 15 * 60_000;
export const bucketOf = (at: Date) => new Date(Math.floor(at.getTime() / BUCKET_MS) * BUCKET_MS);

/** A device clock may not place a run in the future (beyond this) or before 2017. */
const MAX_AHEAD_MS = 10 * 60_000;

interface Contribution {
  runs: number;
  ended: number;
  completed: number;
  interrupted: number;
  userEnded: number;
  faults: number;
  areaM2: number;
  durationS: number;
}

/** What one run adds to its bucket: counted once started, its result once ended. */
function contribution(run: Pick<TaskRunRow, 'status' | 'result' | 'faultCode' | 'areaM2' | 'durationS'>): Contribution {
  const ended = run.status === 'ended';
  return {
    runs: 1,
    ended: ended ? 1 : 0,
    completed: ended && run.result === 'completed' ? 1 : 0,
    interrupted: ended && (run.result === 'interrupted' || run.result === 'failed') ? 1 : 0,
    userEnded: ended && run.result === 'user_ended' ? 1 : 0,
    faults: ended && run.faultCode ? 1 : 0,
    areaM2: ended ? run.areaM2 : 0,
    durationS: ended ? run.durationS : 0,
  };
}

async function addRollup(tx: Tx, at: Date, modelCode: string, firmware: string, c: Contribution, sign: 1 | -1 = 1): Promise<void> {
  const v = (n: number) => n * sign;
  await tx
    .insert(taskRollups)
    .values({ bucket: bucketOf(at), modelCode, firmware, runs: v(c.runs), ended: v(c.ended), completed: v(c.completed), interrupted: v(c.interrupted), userEnded: v(c.userEnded), faults: v(c.faults), areaM2: v(c.areaM2), durationS: v(c.durationS) })
    .onConflictDoUpdate({
      target: [taskRollups.bucket, taskRollups.modelCode, taskRollups.firmware],
      set: {
        runs: sql`${taskRollups.runs} + ${v(c.runs)}`,
        ended: sql`${taskRollups.ended} + ${v(c.ended)}`,
        completed: sql`${taskRollups.completed} + ${v(c.completed)}`,
        interrupted: sql`${taskRollups.interrupted} + ${v(c.interrupted)}`,
        userEnded: sql`${taskRollups.userEnded} + ${v(c.userEnded)}`,
        faults: sql`${taskRollups.faults} + ${v(c.faults)}`,
        areaM2: sql`${taskRollups.areaM2} + ${v(c.areaM2)}`,
        durationS: sql`${taskRollups.durationS} + ${v(c.durationS)}`,
      },
    });
}

function deviceTime(ts: number, receivedAt: Date): Date {
  return ts > receivedAt.getTime() + MAX_AHEAD_MS ? receivedAt : new Date(ts);
}

function detailOf(r: RunReport): Record<string, unknown> {
  switch (r.type) {
    case 'started':
      return { trigger: r.trigger, scheduleId: r.scheduleId, zones: r.zones, plannedAreaM2: r.plannedAreaM2, resumes: r.resumes };
    case 'progress':
      return { percent: r.percent, areaM2: r.areaM2 };
    case 'paused':
      return { reason: r.reason, ...(r.battery === undefined ? {} : { battery: r.battery }) };
    case 'resumed':
      return {};
    case 'ended':
      return { result: r.result, faultCode: r.faultCode, areaM2: r.areaM2, durationS: r.durationS, bladeOnS: r.bladeOnS, distanceM: r.distanceM };
  }
}

export type ApplyOutcome = 'applied' | 'timeline' | 'duplicate' | 'unknown-device';

/**
 * Applies one run report, idempotent per (SN, runId, seq): a redelivered report is recognised by
 * its timeline row and changes nothing; a report older than the latest applied (`last_seq`) only
 * adds to the timeline; an end is final. The roll-ups change in the same transaction.
 */
export async function applyRunReport(db: Db, sn: string, r: RunReport, receivedAt = new Date()): Promise<ApplyOutcome> {
  return db.transaction(async (tx) => {
    const at = deviceTime(r.ts, receivedAt);
    let [run] = await tx.select().from(taskRuns).where(and(eq(taskRuns.sn, sn), eq(taskRuns.runId, r.runId))).for('update');
    if (!run) {
      const [device] = await tx
        .select({ modelCode: productModels.code, owner: devices.owner, firmware: deviceState.firmware })
        .from(devices)
        .innerJoin(productModels, eq(productModels.id, devices.modelId))
        .leftJoin(deviceState, eq(deviceState.sn, devices.sn))
        .where(eq(devices.sn, sn));
      if (!device) return 'unknown-device';
      const startedAt =
        r.type === 'ended' ? deviceTime(r.startedAt ?? r.ts - r.durationS * 1000, receivedAt) : at;
      const [created] = await tx
        .insert(taskRuns)
        .values({
          sn,
          runId: r.runId,
          modelCode: device.modelCode,
          firmware: device.firmware ?? '',
          owner: device.owner.includes('@') ? device.owner.toLowerCase() : '',
          status: 'running',
          startedAt,
          lastReportAt: at,
          lastSeq: 0,
        })
        .onConflictDoNothing()
        .returning();
      if (created) {
        await addRollup(tx, created.startedAt, created.modelCode, created.firmware, contribution(created));
        await emit(tx, { type: 'task.run.started', subject: eventSubject.device(sn), payload: { sn, runId: r.runId, at: created.startedAt.toISOString() } });
      }
      [run] = await tx.select().from(taskRuns).where(and(eq(taskRuns.sn, sn), eq(taskRuns.runId, r.runId))).for('update');
      if (!run) return 'unknown-device';
    }
    const inserted = await tx
      .insert(taskRunEvents)
      .values({ runPk: run.id, seq: r.seq, type: r.type, at, detail: detailOf(r) })
      .onConflictDoNothing()
      .returning({ seq: taskRunEvents.seq });
    if (inserted.length === 0) return 'duplicate';

    const newer = r.seq > run.lastSeq;
    const patch: Partial<typeof taskRuns.$inferInsert> = {};
    if (newer) {
      patch.lastSeq = r.seq;
      patch.lastReportAt = at;
    }
    let applied = false;
    switch (r.type) {
      case 'started': {
        // Facts only a start carries: filled whatever the order, never overwritten.
        if (run.trigger === null) patch.trigger = r.trigger;
        if (run.scheduleId === null && r.scheduleId !== null) {
          patch.scheduleId = r.scheduleId;
          const [s] = await tx.select({ name: taskSchedules.name }).from(taskSchedules).where(and(eq(taskSchedules.id, r.scheduleId), eq(taskSchedules.sn, sn)));
          patch.scheduleName = s?.name ?? null;
        }
        if (run.zones.length === 0) patch.zones = r.zones;
        if (run.plannedAreaM2 === null) patch.plannedAreaM2 = r.plannedAreaM2;
        if (r.resumes && run.resumesRunId === null) {
          patch.resumesRunId = r.resumes;
          const [prev] = await tx.select({ id: taskRuns.id }).from(taskRuns).where(and(eq(taskRuns.sn, sn), eq(taskRuns.runId, r.resumes)));
          patch.resumesId = prev?.id ?? null;
        }
        // The run was first seen through a later report: its start time moves here, and its
        // contribution with it.
        if (at.getTime() < run.startedAt.getTime() && run.lastSeq > 0) {
          await addRollup(tx, run.startedAt, run.modelCode, run.firmware, contribution(run), -1);
          await addRollup(tx, at, run.modelCode, run.firmware, contribution(run));
          patch.startedAt = at;
        }
        applied = true;
        break;
      }
      case 'progress':
        if (run.status !== 'ended') {
          patch.progressPercent = Math.max(run.progressPercent, r.percent);
          patch.areaM2 = Math.max(run.areaM2, r.areaM2);
          if (newer && run.status === 'paused') patch.status = 'running';
          applied = true;
        }
        break;
      case 'paused':
        patch.pauses = run.pauses + 1;
        if (run.status !== 'ended' && newer) patch.status = 'paused';
        applied = newer && run.status !== 'ended';
        break;
      case 'resumed':
        if (run.status !== 'ended' && newer) {
          patch.status = 'running';
          applied = true;
        }
        break;
      case 'ended':
        if (run.status !== 'ended') {
          Object.assign(patch, {
            status: 'ended',
            result: r.result,
            faultCode: r.faultCode,
            areaM2: r.areaM2,
            durationS: r.durationS,
            bladeOnS: r.bladeOnS,
            distanceM: r.distanceM,
            path: r.path,
            progressPercent: r.result === 'completed' ? 100 : run.progressPercent,
            endedAt: at,
          });
          const ended = { ...run, ...patch } as TaskRunRow;
          const before = contribution(run);
          const after = contribution(ended);
          await addRollup(tx, run.startedAt, run.modelCode, run.firmware, {
            runs: 0,
            ended: after.ended - before.ended,
            completed: after.completed - before.completed,
            interrupted: after.interrupted - before.interrupted,
            userEnded: after.userEnded - before.userEnded,
            faults: after.faults - before.faults,
            areaM2: after.areaM2 - before.areaM2,
            durationS: after.durationS - before.durationS,
          });
          await markZones(tx, sn, ended);
          await emit(tx, {
            type: 'task.run.ended',
            subject: eventSubject.device(sn),
            payload: { sn, runId: r.runId, result: r.result, faultCode: r.faultCode, areaM2: r.areaM2, durationS: r.durationS, at: at.toISOString() },
          });
          applied = true;
        }
        break;
    }
    if (Object.keys(patch).length > 0) await tx.update(taskRuns).set(patch).where(eq(taskRuns.id, run.id));
    return applied ? 'applied' : 'timeline';
  });
}

/** "Last mowed" per zone: the run's zones (all of them for a whole-garden run). */
async function markZones(tx: Tx, sn: string, run: TaskRunRow): Promise<void> {
  const endedAt = run.endedAt ?? new Date();
  const zoneFilter = run.zones.length > 0 ? inArray(taskZones.zoneId, run.zones) : undefined;
  await tx
    .update(taskZones)
    .set({
      lastRunId: run.id,
      lastRunResult: run.result,
      lastRunAt: endedAt,
      lastMowedAt: run.result === 'completed' ? endedAt : sql`${taskZones.lastMowedAt}`,
    })
    .where(and(eq(taskZones.sn, sn), zoneFilter, sql`(${taskZones.lastRunAt} is null or ${taskZones.lastRunAt} <= ${endedAt})`));
}

/** `…/zones`: the garden's zones replace the previous list; "last mowed" stays with a zone id. */
export async function applyZones(db: Db, sn: string, report: ZonesReport, receivedAt = new Date()): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [device] = await tx.select({ sn: devices.sn }).from(devices).where(eq(devices.sn, sn));
    if (!device) return false;
    const ids = report.zones.map((z) => z.id);
    await tx.delete(taskZones).where(and(eq(taskZones.sn, sn), ids.length > 0 ? notInArray(taskZones.zoneId, ids) : undefined));
    for (const z of report.zones) {
      await tx
        .insert(taskZones)
        .values({ sn, zoneId: z.id, name: z.name, polygon: z.polygon, areaM2: z.areaM2, reportedAt: receivedAt })
        .onConflictDoUpdate({ target: [taskZones.sn, taskZones.zoneId], set: { name: z.name, polygon: z.polygon, areaM2: z.areaM2, reportedAt: receivedAt } });
    }
    return true;
  });
}
