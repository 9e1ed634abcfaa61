import { describe, expect, it } from 'vitest';
import { jsonDeeperThan, MAX_JSON_DEPTH, unstorableTextPath } from '@mowerline/contract';
import { parseBoundedJson } from '../../src/gateway/bounded-json.ts';

const nested = (depth: number, leaf = '1') => `${'{"a":'.repeat(depth)}${leaf}${'}'.repeat(depth)}`;
const arrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('the JSON depth check (one pass over the text, before parsing)', () => {
  it('counts arrays and objects, exactly at the limit and one past it', () => {
    expect(jsonDeeperThan(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonDeeperThan(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonDeeperThan(arrays(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonDeeperThan(arrays(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonDeeperThan(`[${arrays(3)},{"x":[{}]}]`, 4)).toBe(false);
    expect(jsonDeeperThan(`[${arrays(3)},{"x":[{}]}]`, 3)).toBe(true);
    // Siblings do not add up: depth is nesting, not count.
    expect(jsonDeeperThan(`[${Array.from({ length: 1000 }, () => nested(10)).join(',')}]`, 11)).toBe(false);
  });

  it('brackets inside strings are text, escaped quotes and backslashes included', () => {
    expect(jsonDeeperThan(JSON.stringify({ s: '[[[[{{{{'.repeat(100) }), 2)).toBe(false);
    expect(jsonDeeperThan(JSON.stringify({ s: 'a"[[[[\\"{{{{\\' }), 1)).toBe(false);
    expect(jsonDeeperThan(JSON.stringify({ ['k[{']: ['\\', '"', '\\"[[['] }), 2)).toBe(false);
    expect(jsonDeeperThan(JSON.stringify({ s: '\\' , t: [[[1]]] }), 3)).toBe(true);
  });

  it('reads UTF-8 bytes the same as the decoded text', () => {
    const text = JSON.stringify({ s: '草坪 🌱 "[["', t: [[['割草机']]] });
    for (const max of [2, 3, 4]) expect(jsonDeeperThan(Buffer.from(text), max)).toBe(jsonDeeperThan(text, max));
    expect(jsonDeeperThan(Buffer.from(text), 3)).toBe(true);
    expect(jsonDeeperThan(Buffer.from(text), 4)).toBe(false);
  });

  it('agrees with the parsed value on generated JSON', () => {
    const depthOf = (v: unknown): number => (typeof v === 'object' && v !== null ? 1 + Math.max(0, ...Object.values(v).map(depthOf)) : 0);
    const samples = [{ a: [1, { b: '[' }] }, [[['"', '\\']], {}], { '"[{': { '\\': [null] } }, 'plain', 3, [[[[[[[['deep']]]]]]]]];
    for (const sample of samples) {
      const depth = depthOf(sample);
      const text = JSON.stringify(sample);
      expect(jsonDeeperThan(text, depth), text).toBe(false);
      if (depth > 0) expect(jsonDeeperThan(text, depth - 1), text).toBe(true);
    }
  });
});

describe('device payloads and shell messages: parseBoundedJson', () => {
  it('parses what JSON.parse parses up to the limit, and throws past it or on malformed text', () => {
    expect(parseBoundedJson(Buffer.from('{"v":1,"ok":true}'))).toEqual({ v: 1, ok: true });
    expect(parseBoundedJson(nested(MAX_JSON_DEPTH))).toBeTypeOf('object');
    expect(() => parseBoundedJson(Buffer.from(arrays(30_000)))).toThrow(SyntaxError);
    expect(() => parseBoundedJson('{"v":')).toThrow(SyntaxError);
  });
});

describe('the text check walks iteratively', () => {
  it('names the first unstorable value in the order a recursive walk would (a key, everything under it, then the next key)', () => {
    expect(unstorableTextPath({ a: { b: ['ok', 'x\u0000'] }, c: 'y\u0000' })).toBe('a.b.1');
    expect(unstorableTextPath({ a: 'ok', ['k\u0000ey']: 1, b: 'x\u0000' })).toBe('k?ey');
    expect(unstorableTextPath({ a: [{ b: 1 }, { c: { d: '\ud800' } }] }, ['body'])).toBe('body.a.1.c.d');
    expect(unstorableTextPath('\u0000', ['q'])).toBe('q');
    expect(unstorableTextPath({ a: ['fine', { b: 'Mower 🌱' }] })).toBeUndefined();
    expect(unstorableTextPath(null)).toBeUndefined();
  });

  it('a value nested 100,000 deep is walked without overflowing the stack, its path built once', () => {
    let value: unknown = 'bad\u0000';
    for (let i = 0; i < 100_000; i++) value = { a: value };
    const path = unstorableTextPath(value);
    expect(path?.split('.')).toHaveLength(100_000);
    let clean: unknown = 'fine';
    for (let i = 0; i < 100_000; i++) clean = [clean];
    expect(unstorableTextPath(clean)).toBeUndefined();
  });
});
