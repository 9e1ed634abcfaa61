import { sql } from 'drizzle-orm';
import type { DeviceRegions } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { rowsOf } from '../ota/job-steps.ts';

/**
 * The distinct non-empty regions, by a skip scan over the `(region, sn)` index: one index probe per
 * region instead of reading every device, so it stays instant at a million devices.
 */
export async function deviceRegions(db: Db): Promise<DeviceRegions> {
  const result = await db.execute(sql`
    with recursive r(region) as (
      (select region from devices where region > '' order by region limit 1)
      union all
      select (select d.region from devices d where d.region > r.region order by d.region limit 1) from r where r.region is not null
    )
    select region from r where region is not null`);
  return { list: rowsOf<{ region: string }>(result).map((row) => row.region) };
}
