import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const json = (file: string) => JSON.parse(readFileSync(path.join(root, file), 'utf8')) as Record<string, unknown>;

type Version = [number, number, number];
const cmp = (a: Version, b: Version) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/**
 * Whether `version` satisfies an npm `engines.node` range, for the forms found in lockfiles:
 * `||` alternatives of space-separated comparators (`>=`, `>`, `<=`, `<`, `=`, `^`, `~`), partial
 * and x-versions (`20`, `10.*`, `>=0.8.x`) and `*`.
 */
export function satisfies(version: Version, range: string): boolean {
  return range.split('||').some((alternative) => {
    const text = alternative.replace(/\bnode\b/g, '').trim();
    if (text === '' || text === '*' || text === 'x') return true;
    const comparators = [...text.matchAll(/(>=|<=|>|<|=|\^|~)?\s*v?(\d+|[x*])(?:\.(\d+|[x*]))?(?:\.(\d+|[x*]))?/g)];
    if (comparators.length === 0) throw new Error(`cannot read the range "${range}"`);
    return comparators.every(([, op = '', ...parts]) => {
      const given = parts.map((p) => (p === undefined || p === 'x' || p === '*' ? undefined : Number(p)));
      const [major = 0, minor = 0, patch = 0] = given.map((n) => n ?? 0);
      const low: Version = [major, minor, patch];
      const wildcardAt = given.findIndex((n) => n === undefined);
      // The version just above a partial one: 20 → 21.0.0, 20.9 → 20.10.0.
      const above = (level: number): Version => (level <= 0 ? [major + 1, 0, 0] : level === 1 ? [major, minor + 1, 0] : [major, minor, patch + 1]);
      switch (op) {
        case '>=':
          return cmp(version, low) >= 0;
        case '>':
          return cmp(version, wildcardAt === -1 ? low : above(wildcardAt - 1)) >= (wildcardAt === -1 ? 1 : 0);
        case '<=':
          return wildcardAt === -1 ? cmp(version, low) <= 0 : cmp(version, above(wildcardAt - 1)) < 0;
        case '<':
          return cmp(version, low) < 0;
        case '^':
          return cmp(version, low) >= 0 && cmp(version, major > 0 ? [major + 1, 0, 0] : minor > 0 ? [0, minor + 1, 0] : [0, 0, patch + 1]) < 0;
        case '~':
          return cmp(version, low) >= 0 && cmp(version, given[1] === undefined ? [major + 1, 0, 0] : [major, minor + 1, 0]) < 0;
        default:
          // `=20.1.0`, `20`, `10.*`: exact, or every version under the given prefix.
          return wildcardAt === -1 ? cmp(version, low) === 0 : cmp(version, low) >= 0 && cmp(version, above(wildcardAt - 1)) < 0;
      }
    });
  });
}

/** The lowest Node the root `engines` allows, e.g. `>=20.19` → 20.19.0. */
function lowestSupported(range: string): Version {
  const match = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range.trim());
  if (!match) throw new Error(`root engines.node should be a plain lower bound, not "${range}"`);
  return [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)];
}

describe('Node version: engines and the dependency tree agree', () => {
  it('reads npm ranges as npm does', () => {
    expect(satisfies([20, 19, 0], '>=22')).toBe(false);
    expect(satisfies([20, 19, 0], '>= 22')).toBe(false);
    expect(satisfies([20, 19, 0], '^20.19.0 || >=22.12.0')).toBe(true);
    expect(satisfies([20, 19, 0], '^18.18.0 || ^20.9.0 || >=21.1.0')).toBe(true);
    expect(satisfies([20, 19, 0], '^20.0.0 || ^22.0.0 || >=24.0.0')).toBe(true);
    expect(satisfies([20, 19, 0], '18 || 20 || >=22')).toBe(true);
    expect(satisfies([20, 19, 0], '16 || 14 >=14.17')).toBe(false);
    expect(satisfies([20, 19, 0], '10.* || >= 12.*')).toBe(true);
    expect(satisfies([20, 19, 0], 'node >= 6.0')).toBe(true);
    expect(satisfies([20, 19, 0], '^20.9.0')).toBe(true);
    expect(satisfies([20, 19, 0], '>=20.19.1')).toBe(false);
  });

  it('every installed package accepts the oldest Node the root engines field promises', () => {
    const engines = (json('package.json').engines as { node: string }).node;
    const lowest = lowestSupported(engines);
    const lock = json('package-lock.json') as { packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean }> };
    const refusing = Object.entries(lock.packages)
      .filter(([, pkg]) => pkg.engines && !Array.isArray(pkg.engines) && pkg.engines.node && !pkg.optional)
      .filter(([, pkg]) => !satisfies(lowest, (pkg.engines as { node: string }).node))
      .map(([where, pkg]) => `${where} needs node ${(pkg.engines as { node: string }).node}`);
    expect(refusing, `root engines.node is "${engines}"`).toEqual([]);
  });

  it('the README names the supported Node', () => {
    const engines = (json('package.json').engines as { node: string }).node;
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    expect(readme).toContain(`Node ${engines.replace('>=', '').trim()}`);
  });
});
