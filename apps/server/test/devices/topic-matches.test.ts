import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { topicMatches } from '@mowerline/contract';

/** The plain definition (split both into levels) the in-place matcher must agree with. */
function byLevels(filter: string, topic: string): boolean {
  const f = filter.split('/');
  const t = topic.split('/');
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '#') return true;
    if (i >= t.length) return false;
    if (f[i] !== '+' && f[i] !== t[i]) return false;
  }
  return f.length === t.length;
}

describe('topicMatches', () => {
  it.each([
    ['mowerline/v1/+/telemetry', 'mowerline/v1/D0001/telemetry', true],
    ['mowerline/v1/+/telemetry', 'mowerline/v1/D0001/status', false],
    ['mowerline/v1/+/telemetry', 'mowerline/v1/D0001/telemetry/x', false],
    ['mowerline/v1/+/telemetry', 'mowerline/v1/telemetry', false],
    ['mowerline/v1/+/cmd/#', 'mowerline/v1/D0001/cmd', true],
    ['mowerline/v1/+/cmd/#', 'mowerline/v1/D0001/cmd/reboot/1', true],
    ['a/+', 'a/', true],
    ['a/+', 'a', false],
    ['a/b', 'a/bc', false],
    ['a/bc', 'a/b', false],
    ['#', 'anything/at/all', true],
    ['', '', true],
  ])('%s against %s is %s', (filter, topic, expected) => {
    expect(topicMatches(filter, topic)).toBe(expected);
    expect(byLevels(filter, topic)).toBe(expected);
  });

  it('agrees with matching level by level on any filter and topic', () => {
    const level = fc.constantFrom('a', 'b', 'ab', '', 'telemetry');
    const topic = fc.array(level, { minLength: 1, maxLength: 5 }).map((l) => l.join('/'));
    const filter = fc
      .tuple(fc.array(fc.oneof(level, fc.constant('+')), { minLength: 1, maxLength: 5 }), fc.boolean())
      .map(([l, hash]) => (hash ? [...l, '#'] : l).join('/'));
    fc.assert(fc.property(filter, topic, (f, t) => topicMatches(f, t) === byLevels(f, t)), { numRuns: 5000 });
  });
});
