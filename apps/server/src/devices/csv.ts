/** RFC 4180 CSV: parsing for imports, cell formatting for exports. */

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;

/**
 * Rows of a CSV text (quoted fields, doubled quotes, CRLF or LF); blank lines are kept as `['']`.
 * One pass that copies text by slices, never a character at a time. It stops after `maxRows` rows
 * (`complete` is false when text remains) and keeps at most `maxCells` cells of a row (a longer
 * row is wrong anyway): a 4 MiB upload of line breaks alone once built four million rows, taking
 * 10 s of the event loop and 850 MB of memory.
 */
export function parseCsv(text: string, limits: { maxRows?: number; maxCells?: number } = {}): { rows: string[][]; complete: boolean } {
  const { maxRows = Infinity, maxCells = Infinity } = limits;
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const rows: string[][] = [];
  let row: string[] = [];
  // The cell so far (a quoted part is copied in whole), and where its uncopied characters start.
  let cell = '';
  let from = 0;
  const endCell = (to: number) => {
    if (row.length < maxCells) row.push(cell + src.slice(from, to));
    cell = '';
  };
  for (let i = 0; i < src.length; i++) {
    const c = src.charCodeAt(i);
    if (c === QUOTE && cell === '' && from === i) {
      // A quoted part runs to the first quote that is not doubled (or to the end of the text).
      let close = i + 1;
      for (; close < src.length; close++) {
        if (src.charCodeAt(close) !== QUOTE) continue;
        if (src.charCodeAt(close + 1) !== QUOTE) break;
        close++;
      }
      cell = src.slice(i + 1, close).replaceAll('""', '"');
      i = close;
      from = close + 1;
    } else if (c === COMMA) {
      endCell(i);
      from = i + 1;
    } else if (c === LF || c === CR) {
      endCell(i);
      if (c === CR && src.charCodeAt(i + 1) === LF) i++;
      from = i + 1;
      rows.push(row);
      row = [];
      if (rows.length >= maxRows && from < src.length) return { rows, complete: false };
    }
  }
  const last = cell + src.slice(from);
  if (last !== '' || row.length > 0) {
    if (row.length < maxCells) row.push(last);
    rows.push(row);
  }
  return { rows, complete: true };
}

/**
 * One exported cell. Free text that a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab,
 * CR at the start) gets a leading apostrophe: exports must not become an attack on whoever opens them.
 */
export function csvCell(value: string | number | boolean | null | undefined, freeText = false): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (freeText && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(cells: string[]): string {
  return `${cells.join(',')}\r\n`;
}
