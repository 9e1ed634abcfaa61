import { and, gt, isNotNull, or } from 'drizzle-orm';
import { deviceStates, POSITIONS_OVERLAP_MS, type DevicePositions, type DevicePositionsQuery, type DeviceState } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { deviceState } from './devices.sql.ts';

const stateIndex = new Map<string, number>(deviceStates.map((s, i) => [s, i]));
const OFFLINE = stateIndex.get('offline' satisfies DeviceState)!;
const round5 = (n: number) => Math.round(n * 1e5) / 1e5;

/** Positions of every device with a fix, or of those that changed since `since`, as parallel columns. */
export async function devicePositions(db: Db, query: DevicePositionsQuery): Promise<DevicePositions> {
  const readAt = Date.now();
  const since = query.since ? new Date(query.since) : undefined;
  const changed = since ? or(gt(deviceState.lastSeenAt, since), gt(deviceState.onlineChangedAt, since)) : undefined;
  const rows = await db
    .select({ sn: deviceState.sn, lat: deviceState.lat, lng: deviceState.lng, online: deviceState.online, state: deviceState.state })
    .from(deviceState)
    .where(and(isNotNull(deviceState.lat), isNotNull(deviceState.lng), changed));
  const out: DevicePositions = { next: new Date(readAt - POSITIONS_OVERLAP_MS).toISOString(), full: !since, sn: [], lat: [], lng: [], state: [] };
  for (const r of rows) {
    out.sn.push(r.sn);
    out.lat.push(round5(r.lat!));
    out.lng.push(round5(r.lng!));
    out.state.push(r.online ? (stateIndex.get(r.state) ?? OFFLINE) : OFFLINE);
  }
  return out;
}
