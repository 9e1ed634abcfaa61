/**
 * The deepest nesting of arrays and objects the platform takes in any JSON it receives: request
 * bodies and device payloads. Real inputs stay under ten levels. Anything deeper is refused before
 * it is parsed, because every later walk of a parsed value (the text check, the schema, the
 * answer's writer, a jsonb column) costs stack or time with each level, and a 1 MB body can nest
 * half a million levels.
 */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * Whether JSON text nests arrays and objects deeper than `max`, found in one pass over the text
 * without parsing it: brackets inside strings (escapes included) do not count, and the pass stops
 * at the first level too deep. For valid JSON the count is exact; text that is not valid JSON may
 * be miscounted, and the parser refuses it anyway. Given UTF-8 bytes it reads them as they are
 * (no decoding, no string built): a byte of a multi-byte character is never an ASCII bracket,
 * quote or backslash.
 */
export function jsonDeeperThan(text: string | Uint8Array, max: number = MAX_JSON_DEPTH): boolean {
  return typeof text === 'string' ? deeperThan(text.length, (i) => text.charCodeAt(i), max) : deeperThan(text.length, (i) => text[i]!, max);
}

function deeperThan(length: number, at: (i: number) => number, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < length; i++) {
    const c = at(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
    }
  }
  return false;
}
