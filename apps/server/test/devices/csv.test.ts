import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/devices/csv.ts';

describe('CSV parsing for imports', () => {
  it('reads quoted fields, doubled quotes, CRLF and LF, a BOM, and keeps blank lines', () => {
    expect(parseCsv('\ufeffa,b\r\n"x""y",z\n\n"q\nw",e').rows).toEqual([['a', 'b'], ['x"y', 'z'], [''], ['q\nw', 'e']]);
    expect(parseCsv('"ab"cd,""x,"""",').rows).toEqual([['abcd', 'x', '"', '']]);
    expect(parseCsv('x"y,"a').rows).toEqual([['x"y', 'a']]);
    expect(parseCsv('a,"b\r\nc"d,e').rows).toEqual([['a', 'b\r\ncd', 'e']]);
    expect(parseCsv('').rows).toEqual([]);
    expect(parseCsv(',').rows).toEqual([['', '']]);
  });

  it('stops after maxRows rows, saying whether text remained, and keeps at most maxCells cells of a row', () => {
    const lines = 'h\n' + 'r\n'.repeat(100_000);
    const cut = parseCsv(lines, { maxRows: 10 });
    expect(cut.rows).toHaveLength(10);
    expect(cut.complete).toBe(false);
    expect(parseCsv('a\nb\nc', { maxRows: 3 })).toEqual({ rows: [['a'], ['b'], ['c']], complete: true });
    const wide = parseCsv(`sn,model\n${','.repeat(100_000)}`, { maxCells: 64 });
    expect(wide.rows[1]).toHaveLength(64);
    expect(wide.complete).toBe(true);
  });
});
