import { and, asc, count, desc, eq, gt, gte, inArray, like, lt, lte, type SQL } from 'drizzle-orm';
import type { Page, ShellCloseReason, ShellFrame, ShellSession, ShellSessionQuery } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { prefixPattern } from '../db/helpers.ts';
import { devices } from '../devices/devices.sql.ts';
import { AppError } from '../http/envelope.ts';
import { staffUsers } from '../staff/staff.sql.ts';
import { shellRecords, shellSessions, type ShellSessionRow } from './shell.sql.ts';

/** A node that has not refreshed its sessions' heartbeat for this long is considered gone. */
export const HEARTBEAT_MS = 20_000;
export const NODE_LOST_MS = 3 * HEARTBEAT_MS;

export interface NewSession {
  id: string;
  sn: string;
  staffId: number;
  staffName: string;
  nodeId: string;
  cols: number;
  rows: number;
  ip: string;
}

/**
 * Records a new open session if the limits allow it. The device row and then the staff row are
 * locked for the transaction, so two nodes opening at once cannot both take the last slot.
 */
export async function reserveSession(db: Db, s: NewSession, limits: { perDevice: number; perUser: number }): Promise<void> {
  await closeLostSessions(db);
  await db.transaction(async (tx) => {
    const [device] = await tx.select({ sn: devices.sn }).from(devices).where(eq(devices.sn, s.sn)).for('update');
    if (!device) throw new AppError('SN_NOT_FOUND', { sn: s.sn });
    await tx.select({ id: staffUsers.id }).from(staffUsers).where(eq(staffUsers.id, s.staffId)).for('update');
    const [onDevice] = await tx.select({ n: count() }).from(shellSessions).where(and(eq(shellSessions.status, 'open'), eq(shellSessions.sn, s.sn)));
    if ((onDevice?.n ?? 0) >= limits.perDevice) throw new AppError('SHELL_DEVICE_LIMIT', { sn: s.sn, max: limits.perDevice });
    const [ofUser] = await tx.select({ n: count() }).from(shellSessions).where(and(eq(shellSessions.status, 'open'), eq(shellSessions.staffId, s.staffId)));
    if ((ofUser?.n ?? 0) >= limits.perUser) throw new AppError('SHELL_USER_LIMIT', { max: limits.perUser });
    await tx.insert(shellSessions).values(s);
  });
}

/** Marks a session closed once (the first reason wins); false if it was already closed. */
export async function closeSession(
  db: Db,
  id: string,
  end: { reason: ShellCloseReason; message?: string; bytesIn: number; bytesOut: number; recordedBytes: number; recordTruncated: boolean },
): Promise<boolean> {
  const rows = await db
    .update(shellSessions)
    .set({
      status: 'closed',
      closedAt: new Date(),
      closeReason: end.reason,
      closeMessage: end.message ?? '',
      bytesIn: end.bytesIn,
      bytesOut: end.bytesOut,
      recordedBytes: end.recordedBytes,
      recordTruncated: end.recordTruncated,
    })
    .where(and(eq(shellSessions.id, id), eq(shellSessions.status, 'open')))
    .returning({ id: shellSessions.id });
  return rows.length > 0;
}

export async function heartbeat(db: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.update(shellSessions).set({ heartbeatAt: new Date() }).where(and(inArray(shellSessions.id, ids), eq(shellSessions.status, 'open')));
}

/** Sessions whose node stopped refreshing them no longer hold a slot. */
export async function closeLostSessions(db: Db): Promise<void> {
  await db
    .update(shellSessions)
    .set({ status: 'closed', closedAt: new Date(), closeReason: 'node_lost' })
    .where(and(eq(shellSessions.status, 'open'), lt(shellSessions.heartbeatAt, new Date(Date.now() - NODE_LOST_MS))));
}

export async function getSessionRow(db: Db, id: string): Promise<ShellSessionRow> {
  const [row] = await db.select().from(shellSessions).where(eq(shellSessions.id, id)).limit(1);
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

export function toShellSession(r: ShellSessionRow): ShellSession {
  return {
    id: r.id,
    sn: r.sn,
    staffId: r.staffId,
    staffName: r.staffName,
    status: r.status,
    openedAt: r.openedAt.toISOString(),
    closedAt: r.closedAt ? r.closedAt.toISOString() : null,
    closeReason: (r.closeReason as ShellCloseReason | null) ?? null,
    closeMessage: r.closeMessage,
    bytesIn: r.bytesIn,
    bytesOut: r.bytesOut,
    cols: r.cols,
    rows: r.rows,
    recordTruncated: r.recordTruncated,
    ip: r.ip,
  };
}

export async function listSessions(db: Db, q: ShellSessionQuery): Promise<Page<ShellSession>> {
  const where: SQL[] = [];
  if (q.sn) where.push(like(shellSessions.sn, prefixPattern(q.sn)));
  if (q.staff) where.push(eq(shellSessions.staffName, q.staff));
  if (q.status) where.push(eq(shellSessions.status, q.status));
  if (q.from) where.push(gte(shellSessions.openedAt, new Date(q.from)));
  if (q.to) where.push(lte(shellSessions.openedAt, new Date(q.to)));
  const filter = where.length > 0 ? and(...where) : undefined;
  const [list, [total]] = await Promise.all([
    db
      .select()
      .from(shellSessions)
      .where(filter)
      .orderBy(desc(shellSessions.openedAt), desc(shellSessions.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db.select({ n: count() }).from(shellSessions).where(filter),
  ]);
  return { list: list.map(toShellSession), total: total?.n ?? 0 };
}

/** One page of a recording, at most `limit` frames and about 1 MiB of data. */
export async function recordingPage(db: Db, id: string, after: number, limit: number): Promise<{ frames: ShellFrame[]; next: number | null }> {
  const rows = await db
    .select()
    .from(shellRecords)
    .where(and(eq(shellRecords.sessionId, id), gt(shellRecords.seq, after)))
    .orderBy(asc(shellRecords.seq))
    .limit(limit + 1);
  const frames: ShellFrame[] = [];
  let bytes = 0;
  for (const r of rows.slice(0, limit)) {
    if (frames.length > 0 && bytes + r.data.length > 1024 * 1024) break;
    bytes += r.data.length;
    frames.push({ seq: r.seq, at: r.atMs, kind: r.kind, data: r.data.toString('base64') });
  }
  const more = rows.length > frames.length;
  return { frames, next: more ? (frames.at(-1)?.seq ?? after) : null };
}


/**
 * Recordings (and their session rows) are kept for `retentionDays` after the session ended; the
 * system log keeps who opened which shell and when for as long as it keeps everything else.
 */
export async function pruneRecordings(db: Db, retentionDays: number): Promise<number> {
  const cutoff = new Date(Date.now() - retentionDays * 86_400_000);
  const gone = await db.delete(shellSessions).where(lt(shellSessions.closedAt, cutoff)).returning({ id: shellSessions.id });
  return gone.length;
}
