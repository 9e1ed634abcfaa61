import { and, count, desc, eq, ilike, sql } from 'drizzle-orm';
import type { DeviceGroup, DeviceGroupCreateBody, DeviceGroupListQuery, DeviceGroupUpdateBody, GroupFilter, GroupMembersBody, GroupMembersResult, Page } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { isUniqueViolation, pageOffset } from '../db/helpers.ts';
import { countFiltered } from '../devices/device-list.service.ts';
import { AppError } from '../http/envelope.ts';
import type { Principal } from '../http/auth.ts';
import { rowsOf } from '../ota/job-steps.ts';
import { checkSnRows } from './bulk-rows.ts';
import { deviceGroups, type DeviceGroupRow } from './device-groups.sql.ts';
import { groupById, matchesEverything, withGroup } from './list-filter.ts';

async function toGroup(db: Db, row: DeviceGroupRow): Promise<DeviceGroup> {
  const members = await countFiltered(db, withGroup({ sort: 'sn' }, row));
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    kind: row.kind,
    filter: row.filter ?? null,
    memberCount: members.total,
    memberCountExact: members.exact,
    createdBy: row.createdByName,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function getGroup(db: Db, id: number): Promise<DeviceGroup> {
  return toGroup(db, await groupById(db, id));
}

export async function listGroups(db: Db, q: DeviceGroupListQuery): Promise<Page<DeviceGroup>> {
  const like = q.name ? `%${q.name.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  const where = and(like ? ilike(deviceGroups.name, like) : undefined, q.kind ? eq(deviceGroups.kind, q.kind) : undefined);
  const [rows, [total]] = await Promise.all([
    db.select().from(deviceGroups).where(where).orderBy(desc(deviceGroups.id)).limit(q.pageSize).offset(pageOffset(q)),
    db.select({ n: count() }).from(deviceGroups).where(where),
  ]);
  return { list: await Promise.all(rows.map((r) => toGroup(db, r))), total: total?.n ?? 0 };
}

/** A saved filter that names no condition must say it means every device. */
function checkFilter(filter: GroupFilter): GroupFilter {
  if (matchesEverything(filter) && !filter.all) throw new AppError('GROUP_FILTER_ALL');
  return filter;
}

async function named<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('GROUP_NAME_TAKEN', { name });
    throw err;
  }
}

/** A static group with its first members (per-row errors reported), or a dynamic group with its filter. */
export async function createGroup(db: Db, body: DeviceGroupCreateBody, who: Principal): Promise<{ group: DeviceGroup; members?: GroupMembersResult }> {
  if (body.kind === 'static' ? body.filter !== undefined : body.sns !== undefined || body.filter === undefined) throw new AppError('GROUP_KIND_MISMATCH');
  const filter = body.kind === 'dynamic' ? checkFilter(body.filter!) : null;
  const checked = body.sns ? await checkSnRows(db, body.sns) : undefined;
  const row = await named(body.name, () =>
    db.transaction(async (tx) => {
      const [created] = await tx
        .insert(deviceGroups)
        .values({ name: body.name, description: body.description, kind: body.kind, filter, createdBy: who.id, createdByName: who.username })
        .returning();
      if (checked && checked.valid.length > 0) await addMembers(tx as unknown as Db, created!.id, checked.valid);
      return created!;
    }),
  );
  const group = await toGroup(db, row);
  if (!checked) return { group };
  return { group, members: { added: checked.valid.length, removed: 0, memberCount: group.memberCount, errorCount: checked.errorCount, errors: checked.errors } };
}

export async function updateGroup(db: Db, id: number, body: DeviceGroupUpdateBody): Promise<{ before: DeviceGroup; after: DeviceGroup }> {
  const row = await groupById(db, id);
  if (body.filter !== undefined && row.kind !== 'dynamic') throw new AppError('GROUP_KIND_MISMATCH');
  const filter = body.filter !== undefined ? checkFilter(body.filter) : undefined;
  const before = await toGroup(db, row);
  const [updated] = await named(body.name ?? row.name, () =>
    db
      .update(deviceGroups)
      .set({ name: body.name, description: body.description, filter, updatedAt: new Date() })
      .where(eq(deviceGroups.id, id))
      .returning(),
  );
  if (!updated) throw new AppError('GROUP_NOT_FOUND');
  return { before, after: await toGroup(db, updated) };
}

/** The running or paused campaigns whose target includes or excludes this group. */
async function campaignsUsing(db: Db, id: number): Promise<string[]> {
  const json = JSON.stringify([id]);
  return rowsOf<{ name: string }>(
    await db.execute(sql`
      select name from ota_campaigns
      where status in ('running', 'paused')
        and (coalesce(target->'groupIds', '[]'::jsonb) @> ${json}::jsonb or coalesce(target->'excludeGroupIds', '[]'::jsonb) @> ${json}::jsonb)
      order by id`),
  ).map((r) => r.name);
}

export async function deleteGroup(db: Db, id: number): Promise<DeviceGroup> {
  const group = await getGroup(db, id);
  const using = await campaignsUsing(db, id);
  if (using.length > 0) throw new AppError('GROUP_IN_USE', { name: group.name, campaign: using.join('", "') });
  await db.delete(deviceGroups).where(eq(deviceGroups.id, id));
  return group;
}

async function addMembers(db: Db, groupId: number, sns: string[]): Promise<number> {
  const [n] = rowsOf<{ n: number }>(
    await db.execute(sql`
      with added as (
        insert into device_group_members (group_id, sn) select ${groupId}, s.sn from unnest(${sql.param(sns)}::text[]) as s(sn)
        on conflict do nothing returning 1)
      select count(*)::int as n from added`),
  );
  return Number(n?.n ?? 0);
}

/** Adds and removes members of a static group: each list checked row by row, the valid rows applied. */
export async function changeMembers(db: Db, id: number, body: GroupMembersBody): Promise<GroupMembersResult> {
  const row = await groupById(db, id);
  if (row.kind !== 'static') throw new AppError('GROUP_KIND_MISMATCH');
  const [add, remove] = await Promise.all([checkSnRows(db, body.add), checkSnRows(db, body.remove)]);
  const { added, removed } = await db.transaction(async (tx) => {
    const addedRows = add.valid.length > 0 ? await addMembers(tx as unknown as Db, id, add.valid) : 0;
    const [r] = remove.valid.length
      ? rowsOf<{ n: number }>(
          await tx.execute(sql`
            with removed as (delete from device_group_members where group_id = ${id} and sn = any(${sql.param(remove.valid)}::text[]) returning 1)
            select count(*)::int as n from removed`),
        )
      : [{ n: 0 }];
    await tx.update(deviceGroups).set({ updatedAt: new Date() }).where(eq(deviceGroups.id, id));
    return { added: addedRows, removed: Number(r?.n ?? 0) };
  });
  // Rows of the remove list are numbered after those of the add list.
  const errors = [...add.errors, ...remove.errors.map((e) => ({ ...e, row: e.row + body.add.length }))].slice(0, 500);
  const members = await countFiltered(db, withGroup({ sort: 'sn' }, row));
  return { added, removed, memberCount: members.total, errorCount: add.errorCount + remove.errorCount, errors };
}
