import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { matchingSns } from '../devices/device-list.service.ts';
import { groupById, withGroup } from './list-filter.ts';

/** `select sn …` of the devices in any of the included groups, and of those in any excluded group. */
export interface GroupSets {
  include?: SQL;
  exclude?: SQL;
}

/** The members of these groups as they are now, as SQL (an unknown id is GROUP_NOT_FOUND). */
async function unionOf(db: Db, ids: readonly number[]): Promise<SQL | undefined> {
  if (ids.length === 0) return undefined;
  const groups = await Promise.all([...new Set(ids)].map((id) => groupById(db, id)));
  const sets = groups.map((g) => sql`(${matchingSns(db, withGroup({ sort: 'sn' }, g))})`);
  return sql`select sn from (${sql.join(sets, sql` union `)}) as members`;
}

export async function groupSetSql(db: Db, include: readonly number[], exclude: readonly number[]): Promise<GroupSets> {
  const [inc, exc] = await Promise.all([unionOf(db, include), unionOf(db, exclude)]);
  return { include: inc, exclude: exc };
}
