import { eq, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { parseTagQuery, type DeviceFilter, type GroupFilter, type TagCondition } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { AppError } from '../http/envelope.ts';
import { deviceGroups, type DeviceGroupRow } from './device-groups.sql.ts';

export type TagSource = 'staff' | 'device';
export type SourcedCondition = TagCondition & { source: TagSource };

/**
 * The device list's filter once tags, attributes and groups are resolved: the scalar filters, the
 * tag conditions (staff tags and device attributes), membership of a static group, or `none` when
 * the filters contradict each other (nothing can match).
 */
export type ListFilter = Omit<DeviceFilter, 'tag' | 'attr' | 'groupId'> & { conditions?: SourcedCondition[]; memberOf?: number; none?: boolean };
type Scalars = Omit<GroupFilter, 'tags' | 'attributes' | 'all'>;

export function sourced(tags: readonly TagCondition[] | undefined, attributes: readonly TagCondition[] | undefined): SourcedCondition[] {
  return [...(tags ?? []).map((c) => ({ ...c, source: 'staff' as const })), ...(attributes ?? []).map((c) => ({ ...c, source: 'device' as const }))];
}

/** True when a saved filter names no condition at all (it would match every device). */
export function matchesEverything(f: GroupFilter): boolean {
  const { all: _all, tags, attributes, ...scalars } = f;
  return (tags ?? []).length === 0 && (attributes ?? []).length === 0 && Object.values(scalars).every((v) => v === undefined || v === '');
}

export async function groupById(db: Db, id: number): Promise<DeviceGroupRow> {
  const [row] = await db.select().from(deviceGroups).where(eq(deviceGroups.id, id)).limit(1);
  if (!row) throw new AppError('GROUP_NOT_FOUND');
  return row;
}

/** Both filters at once (AND); a field both set to different values matches nothing. */
function mergeScalars(into: ListFilter, saved: Scalars): void {
  const target = into as Record<string, unknown>;
  for (const [key, value] of Object.entries(saved) as Array<[keyof Scalars, unknown]>) {
    if (value === undefined) continue;
    const mine = target[key];
    if (mine === undefined || mine === '' || mine === value) {
      target[key] = value;
    } else if (key === 'sn' && typeof mine === 'string' && typeof value === 'string' && (mine.startsWith(value) || value.startsWith(mine))) {
      target[key] = mine.length >= value.length ? mine : value; // both SN prefixes: the longer one
    } else if (key === 'lastSeenFrom') {
      target[key] = Date.parse(mine as string) >= Date.parse(value as string) ? mine : value; // the later lower bound
    } else if (key === 'lastSeenTo') {
      target[key] = Date.parse(mine as string) <= Date.parse(value as string) ? mine : value; // the earlier upper bound
    } else {
      into.none = true;
    }
  }
}

/** A saved filter (a dynamic group's, a bulk tag's) as a list filter in SN order. */
export function fromGroupFilter(f: GroupFilter): ListFilter {
  const out: ListFilter = { sort: 'sn', conditions: sourced(f.tags, f.attributes) };
  mergeScalars(out, { ...f, tags: undefined, attributes: undefined, all: undefined } as Scalars);
  return out;
}

/** Adds a group's membership to a list filter: a static group's member list, or a dynamic group's saved filter. */
export function withGroup(filter: ListFilter, group: DeviceGroupRow): ListFilter {
  const out: ListFilter = { ...filter, conditions: [...(filter.conditions ?? [])] };
  if (group.kind === 'static') {
    // Two static groups at once (a group's page filtered by another group) are not offered.
    out.memberOf = group.id;
  } else if (group.filter) {
    const { tags, attributes, all: _all, ...scalars } = group.filter;
    mergeScalars(out, scalars);
    out.conditions!.push(...sourced(tags, attributes));
  }
  return out;
}

/** The device list's query (`tag=`, `attr=`, `groupId=`) as a list filter; an unknown group is GROUP_NOT_FOUND. */
export async function resolveListFilter(db: Db, query: DeviceFilter): Promise<ListFilter> {
  const { tag, attr, groupId, ...rest } = query;
  const filter: ListFilter = { ...rest, conditions: sourced(tag ? parseTagQuery(tag) : [], attr ? parseTagQuery(attr) : []) };
  return groupId === undefined ? filter : withGroup(filter, await groupById(db, groupId));
}

/** Slot names of the i-th condition: the operator is in the name, so the query's shape names it. */
export function conditionValues(conditions: readonly SourcedCondition[] | undefined): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  (conditions ?? []).forEach((c, i) => {
    const p = `c${i}_${c.source}_${c.op}_`;
    values[`${p}k`] = c.key;
    if (c.op === 'eq' || c.op === 'neq') values[`${p}v`] = c.value;
    if (c.op === 'in') values[`${p}vs`] = c.values;
  });
  return values;
}

/**
 * Each condition as `exists (…)` on the tags of the device `sn`: an index range of
 * (source, key, value, sn) or of the primary key (sn, source, key). A key no device has matches
 * nothing, whatever the operator.
 */
export function conditionSql(conditions: readonly SourcedCondition[] | undefined, sn: PgColumn, value: (name: string) => SQLWrapper): SQL[] {
  return (conditions ?? []).map((c, i) => {
    const p = `c${i}_${c.source}_${c.op}_`;
    const base = sql`select 1 from device_tags t where t.sn = ${sn} and t.source = ${c.source} and t.key = ${value(`${p}k`)}`;
    if (c.op === 'eq') return sql`exists (${base} and t.value = ${value(`${p}v`)})`;
    if (c.op === 'neq') return sql`exists (${base} and t.value <> ${value(`${p}v`)})`;
    if (c.op === 'in') return sql`exists (${base} and t.value = any(${value(`${p}vs`)}::text[]))`;
    return sql`exists (${base})`;
  });
}

export function memberSql(sn: PgColumn, value: (name: string) => SQLWrapper): SQL {
  return sql`exists (select 1 from device_group_members m where m.group_id = ${value('memberOf')} and m.sn = ${sn})`;
}
