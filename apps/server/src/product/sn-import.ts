import { inArray } from 'drizzle-orm';
import {
  deviceSecretSchema,
  MAX_SN_IMPORT_ROWS,
  regionSchema,
  snImportColumns,
  snImportReasons,
  snSchema,
  type Locale,
  type SnImportReason,
  type SnImportRejection,
} from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { devices } from '../devices/devices.sql.ts';
import { parseCsv } from '../devices/csv.ts';
import { AppError } from '../http/envelope.ts';
import { productModels } from './product.sql.ts';

export interface ImportRow {
  sn: string;
  modelId: number;
  region: string;
  owner: string;
  remark: string;
  /** Supplied by the factory in the file, else undefined (the platform generates one). */
  secret?: string;
}

const REPORTED_REJECTIONS = 1000;
const MAX_CELLS = 64;

/**
 * Reads and checks a whole SN import file. Returns the rows only when every one is valid; otherwise
 * throws SN_IMPORT_REJECTED with the report, so nothing is ever half-imported.
 */
export async function validateImport(db: Db, text: string, locale: Locale): Promise<ImportRow[]> {
  // Trailing blank lines are no rows; past the header and one row more than allowed, the rest of
  // the file is not read: it is refused as too large whatever it holds. A row keeps at most
  // MAX_CELLS cells, far more than the columns there are: a longer one is refused as BAD_COLUMNS.
  const { rows: lines, complete } = parseCsv(text.trimEnd(), { maxRows: MAX_SN_IMPORT_ROWS + 2, maxCells: MAX_CELLS });
  if (!complete) throw new AppError('SN_IMPORT_TOO_LARGE', { max: MAX_SN_IMPORT_ROWS });
  while (lines.length > 0 && lines[lines.length - 1]!.every((c) => c.trim() === '')) lines.pop();
  const header = (lines[0] ?? []).map((h) => h.trim().toLowerCase());
  if (!header.includes('sn') || !header.includes('model') || lines.length < 2) throw new AppError('SN_IMPORT_EMPTY');
  const unknown = header.find((h) => !(snImportColumns as readonly string[]).includes(h));
  if (unknown !== undefined) throw new AppError('VALIDATION', { detail: `unknown column "${unknown}" (allowed: ${snImportColumns.join(', ')})` });
  const data = lines.slice(1);
  if (data.length > MAX_SN_IMPORT_ROWS) throw new AppError('SN_IMPORT_TOO_LARGE', { max: MAX_SN_IMPORT_ROWS });

  const models = new Map((await db.select({ id: productModels.id, code: productModels.code }).from(productModels)).map((m) => [m.code, m.id]));
  const rejected: SnImportRejection[] = [];
  const reject = (line: number, sn: string, reason: SnImportReason) => rejected.push({ line, sn, reason, message: snImportReasons[reason][locale] });
  const rows: Array<ImportRow & { line: number }> = [];
  const seen = new Set<string>();

  data.forEach((cells, index) => {
    const line = index + 2;
    const get = (column: string) => (cells[header.indexOf(column)] ?? '').trim();
    const rawSn = get('sn');
    if (cells.length !== header.length) return reject(line, rawSn, 'BAD_COLUMNS');
    const sn = snSchema.safeParse(rawSn);
    if (!sn.success) return reject(line, rawSn, 'SN_INVALID');
    if (seen.has(sn.data)) return reject(line, sn.data, 'SN_DUPLICATE');
    seen.add(sn.data);
    const modelId = models.get(get('model').toUpperCase());
    if (modelId === undefined) return reject(line, sn.data, 'MODEL_UNKNOWN');
    const region = get('region');
    const parsedRegion = region === '' ? undefined : regionSchema.safeParse(region);
    if (parsedRegion && !parsedRegion.success) return reject(line, sn.data, 'REGION_INVALID');
    if (get('owner').length > 128 || get('remark').length > 500) return reject(line, sn.data, 'FIELD_TOO_LONG');
    const secret = get('secret');
    if (secret !== '' && !deviceSecretSchema.safeParse(secret).success) return reject(line, sn.data, 'SECRET_INVALID');
    rows.push({ line, sn: sn.data, modelId, region: parsedRegion?.data ?? '', owner: get('owner'), remark: get('remark'), secret: secret || undefined });
  });

  for (let i = 0; i < rows.length; i += 1000) {
    const part = rows.slice(i, i + 1000);
    const existing = new Set((await db.select({ sn: devices.sn }).from(devices).where(inArray(devices.sn, part.map((r) => r.sn)))).map((r) => r.sn));
    for (const r of part) if (existing.has(r.sn)) reject(r.line, r.sn, 'SN_EXISTS');
  }

  if (rejected.length > 0) {
    rejected.sort((a, b) => a.line - b.line);
    throw new AppError('SN_IMPORT_REJECTED', { count: rejected.length }, { rows: data.length, rejectedCount: rejected.length, rejected: rejected.slice(0, REPORTED_REJECTIONS) });
  }
  return rows.map(({ line: _line, ...row }) => row);
}
