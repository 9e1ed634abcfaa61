import { and, asc, desc, eq, gte, like, lte, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { DeviceFilter, DeviceListQuery, DevicePage, DeviceSort, DeviceSummary } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { pageOffset, prefixPattern } from '../db/helpers.ts';
import { AppError } from '../http/envelope.ts';
import { productModels } from '../product/product.sql.ts';
import { countMatches } from './count.ts';
import { BATTERY_UNKNOWN, deviceState, devices, LAST_SEEN_RESOLUTION_S, ownerIs, seenAt } from './devices.sql.ts';

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
  lastSeenAt: seenAt,
  /** The last-seen order's key (the indexed, coarse column). */
  lastSeenKey: deviceState.lastSeenAt,
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
type ColumnData<C> = C extends SQL<infer D> ? D : C extends { _: { data: infer D } } ? D : never;
export type SummaryRow = { [K in keyof typeof summaryColumns]: ColumnData<(typeof summaryColumns)[K]> };

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

/**
 * A list query reads the registry (`devices`), the latest state, or both, whichever its filter and
 * order need; the SN is in both. Reading one table where one is enough keeps deep pages and
 * counts on a single index.
 */
interface Plan {
  registry: boolean;
  state: boolean;
  /** The SN of the table that drives the query: the order's tie-breaker. */
  sn: PgColumn;
  /** `key`: the page row's field holding the order's value, written into the cursor. */
  sort: { column: PgColumn; kind: KeyKind; descending: boolean; name: DeviceSort; key: keyof SummaryRow };
}

type KeyKind = 'text' | 'int' | 'time';

/**
 * Every order is (column, sn) with a matching index, so a page is an index range. `table` says
 * which table the column lives in; the SN order can be read from either.
 */
const sortColumns: Record<string, { column?: PgColumn; table: 'registry' | 'state' | 'either'; kind: KeyKind; key: keyof SummaryRow }> = {
  sn: { table: 'either', kind: 'text', key: 'sn' },
  createdAt: { column: devices.createdAt, table: 'registry', kind: 'time', key: 'createdAt' },
  // Ordered by the indexed, coarse column; the row's `lastSeenAt` is the exact time shown.
  lastSeenAt: { column: deviceState.lastSeenAt, table: 'state', kind: 'time', key: 'lastSeenKey' },
  battery: { column: deviceState.battery, table: 'state', kind: 'int', key: 'battery' },
  firmware: { column: deviceState.firmware, table: 'state', kind: 'text', key: 'firmware' },
};

function planOf(f: DeviceFilter): Plan {
  const descending = f.sort.startsWith('-');
  const { column, table, kind, key } = sortColumns[descending ? f.sort.slice(1) : f.sort]!;
  const state = Boolean(f.firmware || f.state || f.lastSeenFrom || f.lastSeenTo) || f.online !== undefined || table === 'state';
  // The registry drives the query unless only the state is needed.
  const registry = Boolean(f.modelId || f.region || f.owner) || table === 'registry' || !state;
  const sn = registry ? devices.sn : deviceState.sn;
  return { registry, state, sn, sort: { column: column ?? sn, kind, descending, name: f.sort, key } };
}

/** The SN columns a condition on the SN goes on: both when both tables are read, so a merge join starts at the right key. */
function snColumns(plan: Plan): PgColumn[] {
  return plan.registry && plan.state ? [devices.sn, deviceState.sn] : [plan.sn];
}

function filterConditions(f: DeviceFilter, plan: Plan): SQL | undefined {
  const c: SQL[] = [];
  if (f.sn) for (const sn of snColumns(plan)) c.push(like(sn, prefixPattern(f.sn)));
  if (f.modelId) c.push(eq(devices.modelId, f.modelId));
  if (f.region) c.push(eq(devices.region, f.region));
  if (f.owner) c.push(ownerIs(f.owner));
  if (f.firmware) c.push(eq(deviceState.firmware, f.firmware));
  if (f.online !== undefined) c.push(eq(deviceState.online, f.online));
  if (f.state === 'offline') c.push(eq(deviceState.online, false));
  else if (f.state) c.push(eq(deviceState.online, true), eq(deviceState.state, f.state));
  // The indexed column lags by up to LAST_SEEN_RESOLUTION_S: it narrows the range, the exact time decides.
  if (f.lastSeenFrom) {
    const from = new Date(f.lastSeenFrom);
    c.push(gte(deviceState.lastSeenAt, new Date(from.getTime() - LAST_SEEN_RESOLUTION_S * 1000)), gte(seenAt, from));
  }
  if (f.lastSeenTo) c.push(lte(deviceState.lastSeenAt, new Date(f.lastSeenTo)), lte(seenAt, new Date(f.lastSeenTo)));
  return c.length > 0 ? and(...c) : undefined;
}

interface Cursor {
  s: string;
  k: string | number;
  n: string;
}

function keyOf(row: SummaryRow, sort: Plan['sort']): string | number {
  const value = row[sort.key];
  return sort.kind === 'time' ? (value as Date).toISOString() : (value as string | number);
}

function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify(c)).toString('base64url');
}

function decodeCursor(raw: string, sort: Plan['sort']): Cursor {
  try {
    const c = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Cursor;
    const keyOk = sort.kind === 'int' ? Number.isInteger(c.k) : sort.kind === 'time' ? typeof c.k === 'string' && !Number.isNaN(Date.parse(c.k)) : typeof c.k === 'string';
    if (c.s === sort.name && keyOk && typeof c.n === 'string') return c;
  } catch {
    // falls through to the error below
  }
  throw new AppError('INVALID_CURSOR');
}

function afterCursor(plan: Plan, c: Cursor): SQL {
  const { sort } = plan;
  const after = (left: SQL, right: SQL) => (sort.descending ? sql`${left} < ${right}` : sql`${left} > ${right}`);
  if (sort.column === plan.sn) return and(...snColumns(plan).map((sn) => after(sql`${sn}`, sql`${c.k}`)))!;
  const key = sort.kind === 'time' ? sql`${c.k}::timestamptz` : sort.kind === 'int' ? sql`${c.k}::int` : sql`${c.k}`;
  return after(sql`(${sort.column}, ${plan.sn})`, sql`(${key}, ${c.n})`);
}

/** `select <columns> from` the plan's table(s). */
function fromPlan<T extends Record<string, PgColumn>>(db: Db, plan: Plan, columns: T) {
  const query = db.select(columns).from(plan.registry ? devices : deviceState).$dynamic();
  return plan.registry && plan.state ? query.innerJoin(deviceState, eq(deviceState.sn, devices.sn)) : query;
}

/**
 * One page in the requested order, after a cursor (keyset) or at an offset. The page's SNs come
 * first from the plan's indexes alone (a deep offset skips index entries, not joined rows), then
 * the columns for just those SNs. Exported for the plan test.
 */
export function pageQuery(db: Db, filter: DeviceFilter, limit: number, opts: { cursor?: string; offset?: number }) {
  const plan = planOf(filter);
  const { sort } = plan;
  const cursor = opts.cursor ? decodeCursor(opts.cursor, sort) : undefined;
  const order = (sortColumn: PgColumn, sn: PgColumn) =>
    (sortColumn === sn ? [sn] : [sortColumn, sn]).map((c) => (sort.descending ? desc(c) : asc(c)));
  const page = fromPlan(db, plan, { sn: plan.sn })
    .where(and(filterConditions(filter, plan), cursor ? afterCursor(plan, cursor) : undefined))
    .orderBy(...order(sort.column, plan.sn))
    .limit(limit)
    .offset(opts.offset ?? 0)
    .as('page');
  return db
    .select(summaryColumns)
    .from(page)
    .innerJoin(devices, eq(devices.sn, page.sn))
    .innerJoin(deviceState, eq(deviceState.sn, page.sn))
    .innerJoin(productModels, eq(productModels.id, devices.modelId))
    .orderBy(...order(sort.column === plan.sn ? devices.sn : sort.column, devices.sn));
}

async function pageRows(db: Db, filter: DeviceFilter, limit: number, opts: { cursor?: string; offset?: number }) {
  const { sort } = planOf(filter);
  const rows = (await pageQuery(db, filter, limit, opts)) as SummaryRow[];
  const last = rows[rows.length - 1];
  const next = rows.length === limit && last ? encodeCursor({ s: sort.name, k: keyOf(last, sort), n: last.sn }) : null;
  return { rows, next };
}

export async function listDevices(db: Db, query: DeviceListQuery): Promise<DevicePage> {
  const plan = planOf(query);
  // The page and its total side by side: two pool connections, one round trip of latency.
  const [{ rows, next }, { total, exact }] = await Promise.all([
    pageRows(db, query, query.pageSize, query.cursor ? { cursor: query.cursor } : { offset: pageOffset(query) }),
    countMatches(db, () => fromPlan(db, plan, { one: plan.sn }).where(filterConditions(query, plan))),
  ]);
  return { list: rows.map(toSummary), total, totalExact: exact, nextCursor: next };
}

/** Every matching device in order, a keyset page at a time: constant memory for any size. */
export async function* allDevices(db: Db, filter: DeviceFilter, batch = 1000): AsyncGenerator<DeviceSummary[]> {
  let cursor: string | undefined;
  for (;;) {
    const { rows, next } = await pageRows(db, filter, batch, { cursor });
    if (rows.length > 0) yield rows.map(toSummary);
    if (!next) return;
    cursor = next;
  }
}
