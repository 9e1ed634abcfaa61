import { sql, type SQL } from 'drizzle-orm';
import type { DeviceTagsBody, DeviceTagsResult } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { matchingSns } from '../devices/device-list.service.ts';
import { AppError } from '../http/envelope.ts';
import { rowsOf } from '../ota/job-steps.ts';
import { checkSnRows } from './bulk-rows.ts';
import { fromGroupFilter, matchesEverything } from './list-filter.ts';

/**
 * Sets and removes staff tags on the devices a body names, in set-based statements whatever their
 * number: an SN list (checked row by row; the valid rows are applied) or a saved filter's matches
 * as they are now (every device only with `all: true`).
 */
export async function updateTags(db: Db, body: DeviceTagsBody): Promise<DeviceTagsResult & { keys: string[] }> {
  const setKeys = Object.keys(body.set);
  if ((body.sns === undefined) === (body.filter === undefined) || setKeys.length + body.remove.length === 0) throw new AppError('TAGS_TARGET_REQUIRED');
  const both = setKeys.find((k) => body.remove.includes(k));
  if (both) throw new AppError('TAGS_SET_AND_REMOVED', { key: both });
  if (body.filter && matchesEverything(body.filter) && !body.filter.all) throw new AppError('GROUP_FILTER_ALL');

  let targets: SQL;
  let rowErrors: Pick<DeviceTagsResult, 'errors' | 'errorCount'> = { errors: [], errorCount: 0 };
  if (body.sns) {
    const checked = await checkSnRows(db, body.sns);
    rowErrors = { errors: checked.errors, errorCount: checked.errorCount };
    targets = sql`select unnest(${sql.param(checked.valid)}::text[]) as sn`;
  } else {
    targets = matchingSns(db, fromGroupFilter(body.filter!));
  }
  const devices = await db.transaction(async (tx) => {
    // The targets once, in a temporary table: a filter's matches must not change between the statements.
    await tx.execute(sql`create temporary table tag_targets (sn text collate "C" primary key) on commit drop`);
    await tx.execute(sql`insert into tag_targets (sn) select distinct sn from (${targets}) m`);
    if (body.remove.length > 0) {
      await tx.execute(sql`delete from device_tags t using tag_targets x
        where t.sn = x.sn and t.source = 'staff' and t.key = any(${sql.param(body.remove)}::text[])`);
    }
    if (setKeys.length > 0) {
      await tx.execute(sql`
        insert into device_tags (sn, source, key, value)
        select x.sn, 'staff', kv.key, kv.value
        from tag_targets x cross join unnest(${sql.param(setKeys)}::text[], ${sql.param(setKeys.map((k) => body.set[k]!))}::text[]) as kv(key, value)
        on conflict (sn, source, key) do update set value = excluded.value, updated_at = now()
        where device_tags.value is distinct from excluded.value`);
    }
    const [n] = rowsOf<{ n: number }>(await tx.execute(sql`select count(*)::int as n from tag_targets`));
    return Number(n?.n ?? 0);
  });
  return { devices, ...rowErrors, keys: [...setKeys, ...body.remove] };
}
