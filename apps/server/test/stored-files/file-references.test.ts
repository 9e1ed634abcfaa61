import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { is } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as schema from '../../src/db/schema.ts';
import { fileReferences } from '../../src/stored-files/file-references.ts';

/**
 * A table that stores files names them in a column ending in `_path` (or a `path` column of a table
 * about files). Each such column must be in the sweep's list, or the sweep would remove its files.
 */
const looksLikeStoredFile = (table: string, column: string) => column.endsWith('_path') || (column === 'path' && table.includes('file'));

describe('stored file references', () => {
  const tables: PgTable[] = (Object.values(schema) as unknown[]).filter((v): v is PgTable => is(v, PgTable));
  const listed = new Set(fileReferences.map((r) => `${getTableConfig(r.table).name}.${r.column.name}`));

  it('lists every column of the schema that names a stored file', () => {
    const fileColumns = tables.flatMap((t) => {
      const { name, columns } = getTableConfig(t);
      return columns.filter((c) => looksLikeStoredFile(name, c.name)).map((c) => `${name}.${c.name}`);
    });
    expect(fileColumns.length).toBeGreaterThanOrEqual(4);
    expect(fileColumns.filter((c) => !listed.has(c))).toEqual([]);
  });

  it('lists only columns of the tables they name', () => {
    for (const { table, column } of fileReferences) {
      const { name, columns } = getTableConfig(table);
      expect(columns, `${name}.${column.name}`).toContain(column);
    }
  });
});
