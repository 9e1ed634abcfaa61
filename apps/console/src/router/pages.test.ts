import { describe, expect, it } from 'vitest';
import { pages } from './pages.ts';
import { pageRoutes } from './route-table.ts';

describe('page registry', () => {
  it('has a page for every leaf of the route table', () => {
    const missing = pageRoutes()
      .map((route) => route.name)
      .filter((name) => !pages[name]);
    expect(missing).toEqual([]);
  });

  it('registers no page the route table does not know', () => {
    const names = new Set(pageRoutes().map((route) => route.name));
    expect(Object.keys(pages).filter((name) => !names.has(name))).toEqual([]);
  });
});
