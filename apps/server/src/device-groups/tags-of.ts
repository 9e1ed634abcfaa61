import { and, eq, inArray } from 'drizzle-orm';
import type { TagMap } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { deviceTags } from './device-groups.sql.ts';
import type { TagSource } from './list-filter.ts';

/** The tags (or attributes) of these devices, by SN: one index range of the primary key per device. */
export async function tagsOf(db: Db, sns: readonly string[], source: TagSource): Promise<Map<string, TagMap>> {
  const out = new Map<string, TagMap>();
  if (sns.length === 0) return out;
  const rows = await db
    .select({ sn: deviceTags.sn, key: deviceTags.key, value: deviceTags.value })
    .from(deviceTags)
    .where(and(inArray(deviceTags.sn, [...sns]), eq(deviceTags.source, source)))
    .orderBy(deviceTags.sn, deviceTags.key);
  for (const r of rows) {
    let tags = out.get(r.sn);
    if (!tags) out.set(r.sn, (tags = {}));
    tags[r.key] = r.value;
  }
  return out;
}

