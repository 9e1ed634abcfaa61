import { jsonDeeperThan, MAX_JSON_DEPTH } from '@mowerline/contract';

/**
 * JSON from a device (every upstream MQTT message) or a shell socket, parsed like `JSON.parse`,
 * which it replaces there: it throws on malformed JSON and on JSON nesting deeper than
 * MAX_JSON_DEPTH, found in one pass before parsing. A value that deep (a 64 KiB payload holds
 * 30,000 levels) would overflow the stack of whatever walks it later: a command's result is
 * written into the staff member's answer, and `JSON.stringify` fails near 5,000 levels.
 */
export function parseBoundedJson(payload: Buffer | string): unknown {
  const text = typeof payload === 'string' ? payload : payload.toString('utf8');
  if (jsonDeeperThan(text, MAX_JSON_DEPTH)) throw new SyntaxError(`JSON nests deeper than ${MAX_JSON_DEPTH} levels`);
  return JSON.parse(text);
}
