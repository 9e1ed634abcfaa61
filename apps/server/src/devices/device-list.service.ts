import { and, asc, desc, eq, gte, like, lte, sql, type Placeholder, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { DeviceListQuery, DevicePage, DeviceSort, DeviceSummary } from '@mowerline/contract';
import { conditionSql, conditionValues, memberSql, resolveListFilter, type ListFilter } from '../device-groups/list-filter.ts';
import type { Db } from '../db/client.ts';
import { pageOffset, prefixPattern } from '../db/helpers.ts';
import { bound, presentKeys, preparedByShape } from '../db/prepared.ts';
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
  /** Staff tags, read with the row (the primary key's range of the device). */
  tags: sql<Record<string, string> | null>`(select jsonb_object_agg(t.key, t.value) from device_tags t where t.sn = ${devices.sn} and t.source = 'staff')`,
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
    tags: row.tags ?? {},
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

function planOf(f: ListFilter): Plan {
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

/** The filter's values as the SQL compares them. */
function filterValues(f: ListFilter) {
  const from = f.lastSeenFrom ? new Date(f.lastSeenFrom) : undefined;
  return {
    sn: f.sn ? prefixPattern(f.sn) : undefined,
    modelId: f.modelId || undefined,
    region: f.region || undefined,
    owner: f.owner || undefined,
    firmware: f.firmware || undefined,
    online: f.online,
    offline: f.state === 'offline' || undefined,
    state: f.state && f.state !== 'offline' ? f.state : undefined,
    // The indexed column lags by up to LAST_SEEN_RESOLUTION_S: it narrows the range, the exact time decides.
    seenFromIndexed: from ? new Date(from.getTime() - LAST_SEEN_RESOLUTION_S * 1000) : undefined,
    seenFrom: from,
    seenTo: f.lastSeenTo ? new Date(f.lastSeenTo) : undefined,
    memberOf: f.memberOf,
    ...conditionValues(f.conditions),
  };
}
type FilterValues = ReturnType<typeof filterValues>;
/** Each value is a slot of a prepared query or a bound parameter. */
type ValueOf = (name: keyof FilterValues | keyof Pick<Cursor, 'k' | 'n'>) => SQLWrapper;

function filterConditions(v: FilterValues, plan: Plan, value: (name: keyof FilterValues) => SQLWrapper, conditions: ListFilter['conditions']): SQL | undefined {
  const c: SQL[] = [];
  if (v.sn !== undefined) for (const sn of snColumns(plan)) c.push(like(sn, value('sn')));
  if (v.modelId !== undefined) c.push(eq(devices.modelId, value('modelId')));
  if (v.region !== undefined) c.push(eq(devices.region, value('region')));
  if (v.owner !== undefined) c.push(ownerIs(value('owner')));
  if (v.firmware !== undefined) c.push(eq(deviceState.firmware, value('firmware')));
  if (v.online !== undefined) c.push(eq(deviceState.online, value('online')));
  if (v.offline) c.push(eq(deviceState.online, false));
  if (v.state !== undefined) c.push(eq(deviceState.online, true), eq(deviceState.state, value('state')));
  if (v.seenFrom !== undefined) c.push(gte(deviceState.lastSeenAt, value('seenFromIndexed')), gte(seenAt, value('seenFrom')));
  if (v.seenTo !== undefined) c.push(lte(deviceState.lastSeenAt, value('seenTo')), lte(seenAt, value('seenTo')));
  const named = value as (name: string) => SQLWrapper;
  if (v.memberOf !== undefined) c.push(memberSql(plan.sn, named));
  c.push(...conditionSql(conditions, plan.sn, named));
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

function afterCursor(plan: Plan, value: ValueOf): SQL {
  const { sort } = plan;
  const after = (left: SQL, right: SQL) => (sort.descending ? sql`${left} < ${right}` : sql`${left} > ${right}`);
  if (sort.column === plan.sn) return and(...snColumns(plan).map((sn) => after(sql`${sn}`, sql`${value('k')}`)))!;
  const key = sort.kind === 'time' ? sql`${value('k')}::timestamptz` : sort.kind === 'int' ? sql`${value('k')}::int` : sql`${value('k')}`;
  return after(sql`(${sort.column}, ${plan.sn})`, sql`(${key}, ${value('n')})`);
}

/** `select <columns> from` the plan's table(s). */
function fromPlan<T extends Record<string, PgColumn>>(db: Db, plan: Plan, columns: T) {
  const query = db.select(columns).from(plan.registry ? devices : deviceState).$dynamic();
  return plan.registry && plan.state ? query.innerJoin(deviceState, eq(deviceState.sn, devices.sn)) : query;
}

interface PageRequest {
  cursor?: string;
  offset?: number;
}

/**
 * One page in the requested order, after a cursor (keyset) or at an offset. The page's SNs come
 * first from the plan's indexes alone (a deep offset skips index entries, not joined rows), then
 * the columns for just those SNs.
 */
function buildPage(
  db: Db,
  plan: Plan,
  v: FilterValues,
  value: ValueOf,
  paging: { cursor: boolean; limit: number | Placeholder; offset: number | Placeholder },
  conditions: ListFilter['conditions'],
) {
  const { sort } = plan;
  const order = (sortColumn: PgColumn, sn: PgColumn) =>
    (sortColumn === sn ? [sn] : [sortColumn, sn]).map((c) => (sort.descending ? desc(c) : asc(c)));
  const page = fromPlan(db, plan, { sn: plan.sn })
    .where(and(filterConditions(v, plan, value, conditions), paging.cursor ? afterCursor(plan, value) : undefined))
    .orderBy(...order(sort.column, plan.sn))
    .limit(paging.limit)
    .offset(paging.offset)
    .as('page');
  return db
    .select(summaryColumns)
    .from(page)
    .innerJoin(devices, eq(devices.sn, page.sn))
    .innerJoin(deviceState, eq(deviceState.sn, page.sn))
    .innerJoin(productModels, eq(productModels.id, devices.modelId))
    .orderBy(...order(sort.column === plan.sn ? devices.sn : sort.column, devices.sn));
}

function pageValues(filter: ListFilter, plan: Plan, opts: PageRequest) {
  const cursor = opts.cursor ? decodeCursor(opts.cursor, plan.sort) : undefined;
  return { ...filterValues(filter), k: cursor?.k, n: cursor?.n };
}

/** One page's query with its values bound: for the plan test. */
export function pageQuery(db: Db, filter: ListFilter, limit: number, opts: PageRequest) {
  const plan = planOf(filter);
  const values = pageValues(filter, plan, opts);
  return buildPage(db, plan, values, bound(values), { cursor: Boolean(opts.cursor), limit, offset: opts.offset ?? 0 }, filter.conditions);
}

async function pageRows(db: Db, filter: ListFilter, limit: number, opts: PageRequest) {
  const plan = planOf(filter);
  const { sort } = plan;
  const values = pageValues(filter, plan, opts);
  const cursor = Boolean(opts.cursor);
  const shape = `devices:${presentKeys(values)}:${filter.sort}:${cursor ? 'cursor' : 'offset'}`;
  const page = preparedByShape(db, shape, (slot) => buildPage(db, plan, values, slot, { cursor, limit: slot('limit'), offset: slot('offset') }, filter.conditions));
  const rows = (await page.execute({ ...values, limit, offset: opts.offset ?? 0 })) as SummaryRow[];
  const last = rows[rows.length - 1];
  const next = rows.length === limit && last ? encodeCursor({ s: sort.name, k: keyOf(last, sort), n: last.sn }) : null;
  return { rows, next };
}

export async function listDevices(db: Db, query: DeviceListQuery): Promise<DevicePage> {
  const { cursor, page, pageSize, ...filter } = query;
  return listMatching(db, await resolveListFilter(db, filter), { cursor, page, pageSize });
}

/** A page of the devices a resolved filter matches. */
export async function listMatching(db: Db, filter: ListFilter, paging: { cursor?: string; page: number; pageSize: number }): Promise<DevicePage> {
  if (filter.none) return { list: [], total: 0, totalExact: true, nextCursor: null };
  // The page and its total side by side: two pool connections, one round trip of latency.
  const [{ rows, next }, { total, exact }] = await Promise.all([
    pageRows(db, filter, paging.pageSize, paging.cursor ? { cursor: paging.cursor } : { offset: pageOffset(paging) }),
    countFiltered(db, filter),
  ]);
  return { list: rows.map(toSummary), total, totalExact: exact, nextCursor: next };
}

/** How many devices a resolved filter matches (exact up to 10,000, then the planner's estimate). */
export async function countFiltered(db: Db, filter: ListFilter): Promise<{ total: number; exact: boolean }> {
  if (filter.none) return { total: 0, exact: true };
  const plan = planOf(filter);
  const values = filterValues(filter);
  // The plan (which tables) follows the order too, so the sort is part of the count's shape.
  return countMatches(db, {
    shape: `devices:${presentKeys(values)}:${filter.sort}`,
    values,
    matches: (value) => fromPlan(db, plan, { one: plan.sn }).where(filterConditions(values, plan, value, filter.conditions)).$dynamic(),
  });
}

/** `select sn from …` of every device a resolved filter matches, for set-based writes (bulk tags) and targets. */
export function matchingSns(db: Db, filter: ListFilter): SQL {
  if (filter.none) return sql`select null::text as sn where false`;
  const plan = planOf(filter);
  const values = filterValues(filter);
  return sql`${fromPlan(db, plan, { sn: plan.sn }).where(filterConditions(values, plan, bound(values), filter.conditions))}`;
}

/** Every device a resolved filter matches, in order, a keyset page at a time: constant memory for any size. */
export async function* allDevices(db: Db, filter: ListFilter, batch = 1000): AsyncGenerator<DeviceSummary[]> {
  if (filter.none) return;
  let cursor: string | undefined;
  for (;;) {
    const { rows, next } = await pageRows(db, filter, batch, { cursor });
    if (rows.length > 0) yield rows.map(toSummary);
    if (!next) return;
    cursor = next;
  }
}
