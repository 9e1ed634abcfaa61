import { sql, type SQL } from 'drizzle-orm';

/**
 * The SQL sort key of a version (function `ota_version_key`, migration 0018): two keys compare
 * byte by byte as `compareVersions` compares the versions, so a version range is a key range.
 * COLLATE "C" because a key is bytes, whatever the database's collation says about letters.
 */
export function versionKey(version: SQL | string): SQL {
  return sql`(ota_version_key(${version}::text) collate "C")`;
}

