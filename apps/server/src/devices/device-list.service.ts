import { and, asc, desc, eq, gte, like, lte, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { DeviceFilter, DeviceListQuery, DevicePage, DeviceSort, DeviceSummary } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { pageOffset, prefixPattern } from '../db/helpers.ts';
import { AppError } from '../http/envelope.ts';
import { productModels } from '../product/product.sql.ts';
import { countMatches } from './count.ts';
import { BATTERY_UNKNOWN, deviceState, devices } from './devices.sql.ts';

export const summaryColumns = {
  sn: devices.sn,
  modelId: devices.modelId,
  modelCode: productModels.code,
  modelName: productModels.name,
  enabled: devices.enabled,
  region: devices.region,
  owner: devices.owner,
  createdAt: devices.createdAt,
  online: deviceState.online,
  onlineChangedAt: deviceState.onlineChangedAt,
  lastSeenAt: deviceState.lastSeenAt,
  state: deviceState.state,
  activity: deviceState.activity,
  errorCode: deviceState.errorCode,
  battery: deviceState.battery,
  lat: deviceState.lat,
  lng: deviceState.lng,
  heading: deviceState.heading,
  bladeRpm: deviceState.bladeRpm,
  rssi: deviceState.rssi,
  firmware: deviceState.firmware,
};
export type SummaryRow = { [K in keyof typeof summaryColumns]: (typeof summaryColumns)[K]['_']['data'] };

/** Database sentinels (devices.sql.ts) become nulls; a disconnected mower shows `offline`. */
export function toSummary(row: SummaryRow): DeviceSummary {
  return {
    sn: row.sn,
    modelId: row.modelId,
    modelCode: row.modelCode,
    modelName: row.modelName,
    enabled: row.enabled,
    online: row.online,
    state: row.online ? (row.state as DeviceSummary['state']) : 'offline',
    activity: row.activity as DeviceSummary['activity'],
    errorCode: row.errorCode,
    battery: row.battery === BATTERY_UNKNOWN ? null : row.battery,
    firmware: row.firmware || null,
    position: row.lat !== null && row.lng !== null ? { lat: row.lat, lng: row.lng, heading: row.heading ?? 0 } : null,
    rssi: row.rssi,
    bladeRpm: row.bladeRpm,
    region: row.region,
    owner: row.owner,
    lastSeenAt: row.lastSeenAt.getTime() === 0 ? null : row.lastSeenAt.toISOString(),
    onlineChangedAt: row.onlineChangedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

export function filterConditions(f: DeviceFilter): SQL | undefined {
  const c: SQL[] = [];
  if (f.sn) c.push(like(devices.sn, prefixPattern(f.sn)));
  if (f.modelId) c.push(eq(devices.modelId, f.modelId));
  if (f.region) c.push(eq(devices.region, f.region));
  if (f.owner) c.push(eq(devices.owner, f.owner));
  if (f.firmware) c.push(eq(deviceState.firmware, f.firmware));
  if (f.online !== undefined) c.push(eq(deviceState.online, f.online));
  if (f.state === 'offline') c.push(eq(deviceState.online, false));
  else if (f.state) c.push(eq(deviceState.online, true), eq(deviceState.state, f.state));
  if (f.lastSeenFrom) c.push(gte(deviceState.lastSeenAt, new Date(f.lastSeenFrom)));
  if (f.lastSeenTo) c.push(lte(deviceState.lastSeenAt, new Date(f.lastSeenTo)));
  return c.length > 0 ? and(...c) : undefined;
}

type KeyKind = 'text' | 'int' | 'time';

/**
 * Every order is (column, sn) with a matching index, so a page is an index range; the SN of the
 * same table breaks ties and makes the order total, which keyset cursors need.
 */
const sorts: Record<string, { column: PgColumn; tie: PgColumn; kind: KeyKind }> = {
  sn: { column: devices.sn, tie: devices.sn, kind: 'text' },
  createdAt: { column: devices.createdAt, tie: devices.sn, kind: 'time' },
  lastSeenAt: { column: deviceState.lastSeenAt, tie: deviceState.sn, kind: 'time' },
  battery: { column: deviceState.battery, tie: deviceState.sn, kind: 'int' },
  firmware: { column: deviceState.firmware, tie: deviceState.sn, kind: 'text' },
};

function sortOf(sort: DeviceSort) {
  const descending = sort.startsWith('-');
  return { ...sorts[descending ? sort.slice(1) : sort]!, descending, name: sort };
}

interface Cursor {
  s: string;
  k: string | number;
  n: string;
}

function keyOf(row: SummaryRow, kind: KeyKind, name: string): string | number {
  const field = name.replace(/^-/, '') as keyof SummaryRow;
  const value = row[field];
  return kind === 'time' ? (value as Date).toISOString() : (value as string | number);
}

function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify(c)).toString('base64url');
}

function decodeCursor(raw: string, sort: ReturnType<typeof sortOf>): Cursor {
  try {
    const c = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Cursor;
    const keyOk = sort.kind === 'int' ? Number.isInteger(c.k) : sort.kind === 'time' ? typeof c.k === 'string' && !Number.isNaN(Date.parse(c.k)) : typeof c.k === 'string';
    if (c.s === sort.name && keyOk && typeof c.n === 'string') return c;
  } catch {
    // falls through to the error below
  }
  throw new AppError('INVALID_CURSOR');
}

function afterCursor(sort: ReturnType<typeof sortOf>, c: Cursor): SQL {
  const key = sort.kind === 'time' ? sql`${c.k}::timestamptz` : sort.kind === 'int' ? sql`${c.k}::int` : sql`${c.k}`;
  const left = sort.column === sort.tie ? sql`${sort.column}` : sql`(${sort.column}, ${sort.tie})`;
  const right = sort.column === sort.tie ? key : sql`(${key}, ${c.n})`;
  return sort.descending ? sql`${left} < ${right}` : sql`${left} > ${right}`;
}

function baseQuery(db: Db) {
  return db
    .select(summaryColumns)
    .from(devices)
    .innerJoin(deviceState, eq(deviceState.sn, devices.sn))
    .innerJoin(productModels, eq(productModels.id, devices.modelId))
    .$dynamic();
}

/** One page in the requested order, after a cursor when given (keyset) or at an offset. */
async function pageRows(db: Db, filter: DeviceFilter, limit: number, opts: { cursor?: Cursor; offset?: number }) {
  const sort = sortOf(filter.sort);
  const where = and(filterConditions(filter), opts.cursor ? afterCursor(sort, opts.cursor) : undefined);
  const order = sort.column === sort.tie ? [sort.column] : [sort.column, sort.tie];
  const rows = (await baseQuery(db)
    .where(where)
    .orderBy(...order.map((c) => (sort.descending ? desc(c) : asc(c))))
    .limit(limit)
    .offset(opts.offset ?? 0)) as SummaryRow[];
  const last = rows[rows.length - 1];
  const next = rows.length === limit && last ? encodeCursor({ s: sort.name, k: keyOf(last, sort.kind, sort.name), n: last.sn }) : null;
  return { rows, next };
}

export async function listDevices(db: Db, query: DeviceListQuery): Promise<DevicePage> {
  const sort = sortOf(query.sort);
  const cursor = query.cursor ? decodeCursor(query.cursor, sort) : undefined;
  const { rows, next } = await pageRows(db, query, query.pageSize, cursor ? { cursor } : { offset: pageOffset(query) });
  const where = filterConditions(query);
  const { total, exact } = await countMatches(db, () =>
    db.select({ one: devices.sn }).from(devices).innerJoin(deviceState, eq(deviceState.sn, devices.sn)).where(where).$dynamic(),
  );
  return { list: rows.map(toSummary), total, totalExact: exact, nextCursor: next };
}

/** Every matching device in order, a keyset page at a time: constant memory for any size. */
export async function* allDevices(db: Db, filter: DeviceFilter, batch = 1000): AsyncGenerator<DeviceSummary[]> {
  const sort = sortOf(filter.sort);
  let cursor: Cursor | undefined;
  for (;;) {
    const { rows, next } = await pageRows(db, filter, batch, { cursor });
    if (rows.length > 0) yield rows.map(toSummary);
    if (!next) return;
    cursor = decodeCursor(next, sort);
  }
}
