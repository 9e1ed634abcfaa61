import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { settingNames } from '../src/config.ts';

describe('README', () => {
  it('documents every setting the server reads in its configuration table', () => {
    const readme = readFileSync(path.resolve(import.meta.dirname, '../../../README.md'), 'utf8');
    const documented = new Set([...readme.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]));
    expect(settingNames.filter((name) => !documented.has(name))).toEqual([]);
  });
});
