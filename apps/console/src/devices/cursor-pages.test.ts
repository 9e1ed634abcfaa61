import { describe, expect, it } from 'vitest';
import { CursorPages } from './cursor-pages.ts';

describe('CursorPages', () => {
  it('pages forward by cursor and falls back to the offset for unseen pages', () => {
    const pages = new CursorPages();
    pages.reset('a');
    expect(pages.paramsFor(1)).toEqual({ page: 1 });
    pages.remember(1, 'c2');
    expect(pages.paramsFor(2)).toEqual({ cursor: 'c2' });
    expect(pages.paramsFor(5)).toEqual({ page: 5 });
    pages.remember(2, null);
    expect(pages.paramsFor(3)).toEqual({ page: 3 });
  });

  it('forgets cursors when the filters change, and keeps them when they do not', () => {
    const pages = new CursorPages();
    pages.reset('a');
    pages.remember(1, 'c2');
    pages.reset('a');
    expect(pages.paramsFor(2)).toEqual({ cursor: 'c2' });
    pages.reset('b');
    expect(pages.paramsFor(2)).toEqual({ page: 2 });
  });
});
