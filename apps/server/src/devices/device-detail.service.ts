import { asc, desc, eq, sql } from 'drizzle-orm';
import type { DeviceAppUser, DeviceDetail, DeviceHistory, Locale, ReportedState } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { appDeviceLinks, appUsers } from '../end-users/end-users.sql.ts';
import { preparedByShape } from '../db/prepared.ts';
import { AppError } from '../http/envelope.ts';
import { deviceIngestDrops } from '../gateway/ingest-limits.sql.ts';
import { productModels } from '../product/product.sql.ts';
import { tagsOf } from '../device-groups/tags-of.ts';
import { toSummary, summaryColumns, type SummaryRow } from './device-list.service.ts';
import { deviceState, devices } from './devices.sql.ts';
import { recentEvents } from './events.service.ts';
import { bucketSeconds } from './statistics.service.ts';

/** `pendingDrops`: this node's drops of the device not yet written (the rest are in `device_ingest_drops`). */
export async function deviceDetail(db: Db, sn: string, locale: Locale, pendingDrops = { telemetry: 0, events: 0 }): Promise<DeviceDetail> {
  // Three reads of one SN, side by side; each built once (db/prepared.ts).
  const device = preparedByShape(db, 'deviceDetail', (slot) =>
    db
      .select({
        ...summaryColumns,
        remark: devices.remark,
        telemetryAt: deviceState.telemetryAt,
        secretRotatedAt: devices.secretRotatedAt,
        flaggedAt: devices.flaggedAt,
        droppedTelemetry: deviceIngestDrops.telemetry,
        droppedEvents: deviceIngestDrops.events,
      })
      .from(devices)
      .innerJoin(deviceState, eq(deviceState.sn, devices.sn))
      .innerJoin(productModels, eq(productModels.id, devices.modelId))
      .leftJoin(deviceIngestDrops, eq(deviceIngestDrops.sn, devices.sn))
      .where(eq(devices.sn, slot('sn')))
      .limit(1),
  );
  const [[row], events, users, attributes] = await Promise.all([device.execute({ sn }), recentEvents(db, sn, locale), appUsersOf(db, sn), tagsOf(db, [sn], 'device')]);
  if (!row) throw new AppError('SN_NOT_FOUND', { sn });
  return {
    ...toSummary(row as SummaryRow),
    attributes: attributes.get(sn) ?? {},
    remark: row.remark,
    telemetryAt: row.telemetryAt?.toISOString() ?? null,
    secretRotatedAt: row.secretRotatedAt.toISOString(),
    recentEvents: events,
    ...users,
    ingest: {
      droppedTelemetry: Number(row.droppedTelemetry ?? 0) + pendingDrops.telemetry,
      droppedEvents: Number(row.droppedEvents ?? 0) + pendingDrops.events,
      flaggedAt: row.flaggedAt?.toISOString() ?? null,
    },
  };
}

/** The mower's owner and the users it is shared with (owner first, then by e-mail), from the primary key's SN range. */
async function appUsersOf(db: Db, sn: string): Promise<{ ownerUser: DeviceAppUser | null; sharedUsers: DeviceAppUser[] }> {
  const query = preparedByShape(db, 'deviceAppUsers', (slot) =>
    db
      .select({ id: appUsers.id, name: appUsers.name, email: appUsers.email, status: appUsers.status, since: appDeviceLinks.createdAt, role: appDeviceLinks.role })
      .from(appDeviceLinks)
      .innerJoin(appUsers, eq(appUsers.id, appDeviceLinks.userId))
      .where(eq(appDeviceLinks.sn, slot('sn')))
      .orderBy(desc(sql`${appDeviceLinks.role} = 'owner'`), asc(appUsers.email)),
  );
  const rows = await query.execute({ sn });
  const user = ({ role: _role, since, ...r }: (typeof rows)[number]): DeviceAppUser => ({ ...r, since: since.toISOString() });
  const owner = rows.find((r) => r.role === 'owner');
  return { ownerUser: owner ? user(owner) : null, sharedUsers: rows.filter((r) => r.role === 'shared').map(user) };
}

/** Battery and state per time bucket over [from, to] (default: the last 24 hours), from the history index (sn, at). */
export async function deviceHistory(db: Db, sn: string, q: { from?: string; to?: string; points: number }): Promise<DeviceHistory> {
  const [known] = await db.select({ sn: devices.sn }).from(devices).where(eq(devices.sn, sn)).limit(1);
  if (!known) throw new AppError('SN_NOT_FOUND', { sn });
  const to = q.to ? new Date(q.to) : new Date();
  const from = q.from ? new Date(q.from) : new Date(to.getTime() - 86_400_000);
  if (from >= to) throw new AppError('VALIDATION', { detail: 'from must be before to' });
  const bucket = bucketSeconds(from.getTime(), to.getTime(), q.points, 1);
  const result = await db.execute(sql`
    select to_timestamp(floor(extract(epoch from at) / ${bucket}) * ${bucket}) as at,
           avg(battery)::float8 as battery, min(battery)::int as "batteryMin", max(battery)::int as "batteryMax",
           mode() within group (order by state) as state, count(*)::int as samples
    from telemetry_history
    where sn = ${sn} and at >= ${from.toISOString()}::timestamptz and at < ${to.toISOString()}::timestamptz
    group by 1 order by 1`);
  const rows = (result as unknown as { rows: Array<{ at: string | Date; battery: number; batteryMin: number; batteryMax: number; state: string; samples: number }> }).rows;
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    bucketSeconds: bucket,
    points: rows.map((r) => ({
      at: new Date(r.at).toISOString(),
      battery: Math.round(Number(r.battery) * 10) / 10,
      batteryMin: r.batteryMin,
      batteryMax: r.batteryMax,
      state: r.state as ReportedState,
      samples: r.samples,
    })),
  };
}

/** Staff cleared the flag of a device that stayed far above its ingest limits (it stays limited). */
export async function clearDeviceFlag(db: Db, sn: string): Promise<{ before: string | null }> {
  const [row] = await db.select({ flaggedAt: devices.flaggedAt }).from(devices).where(eq(devices.sn, sn)).limit(1);
  if (!row) throw new AppError('SN_NOT_FOUND', { sn });
  if (row.flaggedAt) await db.update(devices).set({ flaggedAt: null }).where(eq(devices.sn, sn));
  return { before: row.flaggedAt?.toISOString() ?? null };
}
