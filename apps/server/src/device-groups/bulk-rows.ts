import { sql } from 'drizzle-orm';
import { MAX_ROW_ERRORS, SN_PATTERN, type BulkRowError } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { rowsOf } from '../ota/job-steps.ts';

export interface CheckedRows {
  /** Registered SNs, each once, in list order. */
  valid: string[];
  errors: BulkRowError[];
  errorCount: number;
}

/**
 * Bulk SN input checked row by row: a malformed SN, a repeat of an earlier row and an SN nobody
 * registered are each reported (the first MAX_ROW_ERRORS of them, the count whole); the valid rows
 * go on. Registration is one query over the whole list.
 */
export async function checkSnRows(db: Db, sns: readonly string[]): Promise<CheckedRows> {
  const errors: BulkRowError[] = [];
  let errorCount = 0;
  const report = (e: BulkRowError) => {
    errorCount++;
    if (errors.length < MAX_ROW_ERRORS) errors.push(e);
  };
  const seen = new Set<string>();
  const wellFormed: Array<{ row: number; sn: string }> = [];
  sns.forEach((sn, i) => {
    if (!SN_PATTERN.test(sn)) report({ row: i + 1, sn, reason: 'invalid' });
    else if (seen.has(sn)) report({ row: i + 1, sn, reason: 'duplicate' });
    else {
      seen.add(sn);
      wellFormed.push({ row: i + 1, sn });
    }
  });
  const known = new Set(
    rowsOf<{ sn: string }>(
      await db.execute(sql`select d.sn from unnest(${sql.param(wellFormed.map((r) => r.sn))}::text[]) as w(sn) join devices d on d.sn = w.sn`),
    ).map((r) => r.sn),
  );
  const valid: string[] = [];
  for (const r of wellFormed) {
    if (known.has(r.sn)) valid.push(r.sn);
    else report({ row: r.row, sn: r.sn, reason: 'unknown' });
  }
  errors.sort((a, b) => a.row - b.row);
  return { valid, errors, errorCount };
}
