import { and, asc, desc, eq, inArray, like, sql, type SQL } from 'drizzle-orm';
import {
  clockMinutes,
  deviceTopic,
  deviceTopics,
  MAX_SCHEDULES_PER_DEVICE,
  PROTOCOL_VERSION,
  type Schedule,
  type ScheduleBody,
  type ScheduleConfig,
  type ScheduleListQuery,
  type ScheduleSlot,
  type SyncState,
} from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { prefixPattern } from '../db/helpers.ts';
import { devices, deviceState } from '../devices/devices.sql.ts';
import { appDeviceLinks, appUsers } from '../end-users/end-users.sql.ts';
import type { Gateway } from '../gateway/gateway.ts';
import { AppError } from '../http/envelope.ts';
import { productModels } from '../product/product.sql.ts';
import { taskDeviceSync, taskSchedules, taskZones, type TaskScheduleRow } from './tasks.sql.ts';

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export interface Editor {
  kind: 'staff' | 'app';
  name: string;
}

const WEEKDAYS = ['', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const slotText = (s: ScheduleSlot) => `${WEEKDAYS[s.weekday]} ${s.start}–${s.end}`;

/** Slots must not overlap within the schedule, nor with the mower's other enabled schedules. */
export function findOverlap(slots: ScheduleSlot[], others: Array<{ name: string; slots: ScheduleSlot[] }>): string | undefined {
  const all = [...slots.map((s) => ({ s, owner: '' })), ...others.flatMap((o) => o.slots.map((s) => ({ s, owner: o.name })))];
  for (let i = 0; i < slots.length; i++) {
    const a = all[i]!.s;
    for (let j = i + 1; j < all.length; j++) {
      const b = all[j]!;
      if (a.weekday !== b.s.weekday) continue;
      if (clockMinutes(a.start) < clockMinutes(b.s.end) && clockMinutes(b.s.start) < clockMinutes(a.end)) {
        return b.owner ? `${slotText(a)} / ${slotText(b.s)} (“${b.owner}”)` : `${slotText(a)} / ${slotText(b.s)}`;
      }
    }
  }
  return undefined;
}

async function validate(tx: Tx, sn: string, body: Pick<ScheduleBody, 'slots' | 'zones' | 'enabled'>, exceptId?: number): Promise<void> {
  if (body.zones.length > 0) {
    const known = new Set((await tx.select({ id: taskZones.zoneId }).from(taskZones).where(eq(taskZones.sn, sn))).map((z) => z.id));
    const unknown = body.zones.find((z) => !known.has(z));
    if (unknown !== undefined) throw new AppError('TASK_ZONE_UNKNOWN', { sn, zone: unknown });
  }
  const others = body.enabled
    ? (await tx.select().from(taskSchedules).where(and(eq(taskSchedules.sn, sn), eq(taskSchedules.enabled, true)))).filter((s) => s.id !== exceptId)
    : [];
  const overlap = findOverlap(body.slots, others);
  if (overlap) throw new AppError('TASK_SLOT_OVERLAP', { detail: overlap });
}

/** The mower's configuration changed: its next revision, pending until acknowledged. */
async function bumpRevision(tx: Tx, sn: string): Promise<number> {
  const [row] = await tx
    .insert(taskDeviceSync)
    .values({ sn, revision: 1, state: 'pending' })
    .onConflictDoUpdate({ target: taskDeviceSync.sn, set: { revision: sql`${taskDeviceSync.revision} + 1`, state: 'pending', error: null } })
    .returning({ revision: taskDeviceSync.revision });
  return row!.revision;
}

const scheduleColumns = {
  s: taskSchedules,
  modelCode: productModels.code,
  owner: devices.owner,
  appliedRevision: taskDeviceSync.appliedRevision,
  syncRevision: taskDeviceSync.revision,
  syncStateCol: taskDeviceSync.state,
  syncError: taskDeviceSync.error,
  sentAt: taskDeviceSync.sentAt,
  appliedAt: taskDeviceSync.appliedAt,
};

function selectSchedules(db: Db | Tx) {
  return db
    .select(scheduleColumns)
    .from(taskSchedules)
    .innerJoin(devices, eq(devices.sn, taskSchedules.sn))
    .innerJoin(productModels, eq(productModels.id, devices.modelId))
    .leftJoin(taskDeviceSync, eq(taskDeviceSync.sn, taskSchedules.sn));
}
type Joined = {
  s: TaskScheduleRow;
  modelCode: string;
  owner: string;
  appliedRevision: number | null;
  syncRevision: number | null;
  syncStateCol: SyncState | null;
  syncError: string | null;
  sentAt: Date | null;
  appliedAt: Date | null;
};

function scheduleState(r: Joined): SyncState {
  if ((r.appliedRevision ?? 0) >= r.s.configRevision) return 'applied';
  // A later revision may have failed or be pending; this schedule's change is not applied either way.
  return r.syncStateCol === 'failed' ? 'failed' : 'pending';
}

function toSchedule(r: Joined): Schedule {
  const state = scheduleState(r);
  return {
    id: r.s.id,
    sn: r.s.sn,
    modelCode: r.modelCode,
    ownerEmail: r.owner.includes('@') ? r.owner : '',
    name: r.s.name,
    enabled: r.s.enabled,
    slots: r.s.slots,
    zones: r.s.zones,
    cutting: r.s.cutting,
    revision: r.s.revision,
    configRevision: r.s.configRevision,
    syncState: state,
    syncError: state === 'failed' ? r.syncError : null,
    sentAt: r.sentAt?.toISOString() ?? null,
    appliedAt: state === 'applied' ? (r.appliedAt?.toISOString() ?? null) : null,
    updatedBy: { kind: r.s.updatedByKind, name: r.s.updatedByName },
    createdAt: r.s.createdAt.toISOString(),
    updatedAt: r.s.updatedAt.toISOString(),
  };
}

export async function getSchedule(db: Db | Tx, id: number, sn?: string): Promise<Schedule> {
  const [row] = await selectSchedules(db).where(and(eq(taskSchedules.id, id), sn ? eq(taskSchedules.sn, sn) : undefined));
  if (!row) throw new AppError('TASK_SCHEDULE_NOT_FOUND');
  return toSchedule(row);
}

export async function deviceSchedules(db: Db, sn: string): Promise<Schedule[]> {
  return (await selectSchedules(db).where(eq(taskSchedules.sn, sn)).orderBy(asc(taskSchedules.id))).map(toSchedule);
}

export async function listSchedules(db: Db, q: ScheduleListQuery) {
  const where: SQL[] = [];
  if (q.sn) where.push(like(taskSchedules.sn, prefixPattern(q.sn)));
  if (q.owner) where.push(like(sql`lower(${devices.owner})`, prefixPattern(q.owner.toLowerCase())));
  if (q.model) where.push(eq(productModels.code, q.model));
  if (q.enabled !== undefined) where.push(eq(taskSchedules.enabled, q.enabled));
  if (q.syncState === 'applied') where.push(sql`coalesce(${taskDeviceSync.appliedRevision}, 0) >= ${taskSchedules.configRevision}`);
  if (q.syncState === 'pending') where.push(sql`coalesce(${taskDeviceSync.appliedRevision}, 0) < ${taskSchedules.configRevision} and coalesce(${taskDeviceSync.state}, 'pending') <> 'failed'`);
  if (q.syncState === 'failed') where.push(sql`coalesce(${taskDeviceSync.appliedRevision}, 0) < ${taskSchedules.configRevision} and ${taskDeviceSync.state} = 'failed'`);
  const rows = await selectSchedules(db)
    .where(and(...where))
    .orderBy(desc(taskSchedules.updatedAt), desc(taskSchedules.id))
    .limit(q.pageSize)
    .offset((q.page - 1) * q.pageSize);
  const [total] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(taskSchedules)
    .innerJoin(devices, eq(devices.sn, taskSchedules.sn))
    .innerJoin(productModels, eq(productModels.id, devices.modelId))
    .leftJoin(taskDeviceSync, eq(taskDeviceSync.sn, taskSchedules.sn))
    .where(and(...where));
  return { list: rows.map(toSchedule), total: total?.n ?? 0 };
}

export async function createSchedule(db: Db, sn: string, body: ScheduleBody, by: Editor): Promise<Schedule> {
  const id = await db.transaction(async (tx) => {
    const [device] = await tx.select({ sn: devices.sn }).from(devices).where(eq(devices.sn, sn)).for('update');
    if (!device) throw new AppError('SN_NOT_FOUND', { sn });
    const [n] = await tx.select({ n: sql<number>`count(*)::int` }).from(taskSchedules).where(eq(taskSchedules.sn, sn));
    if ((n?.n ?? 0) >= MAX_SCHEDULES_PER_DEVICE) throw new AppError('TASK_SCHEDULE_LIMIT', { max: MAX_SCHEDULES_PER_DEVICE });
    await validate(tx, sn, body);
    const revision = await bumpRevision(tx, sn);
    const [row] = await tx
      .insert(taskSchedules)
      .values({ sn, name: body.name, enabled: body.enabled, slots: body.slots, zones: body.zones, cutting: body.cutting, configRevision: revision, updatedByKind: by.kind, updatedByName: by.name })
      .returning({ id: taskSchedules.id });
    return row!.id;
  });
  return getSchedule(db, id);
}

/** Locks the mower's row first: every change to one mower's schedules is serialised. */
async function lockSchedule(tx: Tx, id: number, sn?: string): Promise<TaskScheduleRow> {
  const [found] = await tx.select({ sn: taskSchedules.sn }).from(taskSchedules).where(and(eq(taskSchedules.id, id), sn ? eq(taskSchedules.sn, sn) : undefined));
  if (!found) throw new AppError('TASK_SCHEDULE_NOT_FOUND');
  await tx.select({ sn: devices.sn }).from(devices).where(eq(devices.sn, found.sn)).for('update');
  const [row] = await tx.select().from(taskSchedules).where(eq(taskSchedules.id, id));
  if (!row) throw new AppError('TASK_SCHEDULE_NOT_FOUND');
  return row;
}

export async function updateSchedule(db: Db, id: number, body: ScheduleBody & { revision: number }, by: Editor, sn?: string): Promise<{ before: Schedule; after: Schedule }> {
  const before = await getSchedule(db, id, sn);
  await db.transaction(async (tx) => {
    const row = await lockSchedule(tx, id, sn);
    if (row.revision !== body.revision) throw new AppError('TASK_REVISION_CONFLICT', { revision: row.revision });
    await validate(tx, row.sn, body, id);
    const revision = await bumpRevision(tx, row.sn);
    await tx
      .update(taskSchedules)
      .set({ name: body.name, enabled: body.enabled, slots: body.slots, zones: body.zones, cutting: body.cutting, revision: row.revision + 1, configRevision: revision, updatedByKind: by.kind, updatedByName: by.name, updatedAt: new Date() })
      .where(eq(taskSchedules.id, id));
  });
  return { before, after: await getSchedule(db, id) };
}

export async function setScheduleEnabled(db: Db, id: number, enabled: boolean, by: Editor): Promise<Schedule> {
  await db.transaction(async (tx) => {
    const row = await lockSchedule(tx, id);
    if (row.enabled === enabled) return;
    if (enabled) await validate(tx, row.sn, { slots: row.slots, zones: [], enabled: true }, id);
    const revision = await bumpRevision(tx, row.sn);
    await tx
      .update(taskSchedules)
      .set({ enabled, revision: row.revision + 1, configRevision: revision, updatedByKind: by.kind, updatedByName: by.name, updatedAt: new Date() })
      .where(eq(taskSchedules.id, id));
  });
  return getSchedule(db, id);
}

export async function deleteSchedule(db: Db, id: number, sn?: string): Promise<Schedule> {
  const before = await getSchedule(db, id, sn);
  await db.transaction(async (tx) => {
    const row = await lockSchedule(tx, id, sn);
    await tx.delete(taskSchedules).where(eq(taskSchedules.id, id));
    await bumpRevision(tx, row.sn);
  });
  return before;
}

/** The complete configuration of a mower, as sent on `config/schedule`. */
export async function scheduleConfig(db: Db, sn: string): Promise<ScheduleConfig | undefined> {
  const [sync] = await db.select().from(taskDeviceSync).where(eq(taskDeviceSync.sn, sn));
  if (!sync || sync.revision === 0) return undefined;
  const rows = await db.select().from(taskSchedules).where(eq(taskSchedules.sn, sn)).orderBy(asc(taskSchedules.id));
  const [owner] = await db
    .select({ timeZone: appUsers.timeZone })
    .from(appDeviceLinks)
    .innerJoin(appUsers, eq(appUsers.id, appDeviceLinks.userId))
    .where(and(eq(appDeviceLinks.sn, sn), eq(appDeviceLinks.role, 'owner')));
  return {
    v: PROTOCOL_VERSION,
    rev: sync.revision,
    ts: Date.now(),
    timeZone: owner?.timeZone ?? 'UTC',
    schedules: rows.map((s) => ({ id: s.id, enabled: s.enabled, slots: s.slots, zones: s.zones, cutting: s.cutting })),
  };
}

/** Publishes a mower's configuration (QoS 1) and notes when; a gateway that is not running leaves it pending. */
export async function sendConfig(db: Db, gateway: Gateway, sn: string): Promise<boolean> {
  const config = await scheduleConfig(db, sn);
  if (!config) return false;
  try {
    await gateway.publish(deviceTopic(sn, deviceTopics.configSchedule), config, { qos: 1 });
  } catch {
    return false;
  }
  await db.update(taskDeviceSync).set({ sentAt: new Date() }).where(eq(taskDeviceSync.sn, sn));
  return true;
}

/** `config/ack`: the mower applied (or refused) a revision. An old revision never lowers what is applied. */
export async function applyAck(db: Db, sn: string, ack: { rev: number; ok: boolean; applied?: number; error?: { code: string; message: string } }): Promise<void> {
  const applied = Math.max(ack.ok ? ack.rev : 0, ack.applied ?? 0);
  await db.transaction(async (tx) => {
    const [sync] = await tx.select().from(taskDeviceSync).where(eq(taskDeviceSync.sn, sn)).for('update');
    if (!sync) return;
    const appliedRevision = Math.min(sync.revision, Math.max(sync.appliedRevision, applied));
    let state: SyncState = appliedRevision >= sync.revision ? 'applied' : sync.state;
    let error = sync.error;
    if (!ack.ok && ack.rev === sync.revision) {
      state = 'failed';
      error = ack.error ? `${ack.error.code}: ${ack.error.message}` : 'refused';
    }
    await tx
      .update(taskDeviceSync)
      .set({ appliedRevision, state, error: state === 'applied' ? null : error, appliedAt: appliedRevision > sync.appliedRevision ? new Date() : sync.appliedAt })
      .where(eq(taskDeviceSync.sn, sn));
  });
}

/** Mowers online whose configuration is not applied and was not sent within `olderThanMs`. */
export async function unsyncedOnline(db: Db, sns: string[] | undefined, olderThanMs: number, limit = 500): Promise<string[]> {
  const cutoff = new Date(Date.now() - olderThanMs);
  const rows = await db
    .select({ sn: taskDeviceSync.sn })
    .from(taskDeviceSync)
    .innerJoin(deviceState, eq(deviceState.sn, taskDeviceSync.sn))
    .where(
      and(
        sql`${taskDeviceSync.appliedRevision} < ${taskDeviceSync.revision}`,
        eq(deviceState.online, true),
        sns ? inArray(taskDeviceSync.sn, sns) : sql`(${taskDeviceSync.sentAt} is null or ${taskDeviceSync.sentAt} < ${cutoff})`,
      ),
    )
    .limit(limit);
  return rows.map((r) => r.sn);
}
