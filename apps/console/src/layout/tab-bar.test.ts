import { describe, expect, it } from 'vitest';
import { closeAll, closeLeft, closeOthers, closeRight, closeTab, DEFAULT_TAB, initialTabs, labelTab, neighbourAfterClose, recordTab, uncache, type TabItem } from './tab-bar.ts';

const tab = (name: string, extra: Partial<TabItem> = {}): TabItem => ({ title: `menu.${name}`, name, fullPath: `/x/${name}`, query: {}, ignoreCache: false, ...extra });
const names = (s: { tagList: TabItem[] }) => s.tagList.map((t) => t.name);

describe('tab bar', () => {
  it('starts with workplace, adds one tab per route and caches what may be cached', () => {
    let s = initialTabs();
    expect(s.tagList).toEqual([DEFAULT_TAB]);
    expect(s.cacheTabList).toEqual(['workplace']);
    s = recordTab(s, tab('a'));
    s = recordTab(s, tab('b', { ignoreCache: true }));
    s = recordTab(s, tab('a', { fullPath: '/x/a?page=2', query: { page: '2' } }));
    expect(names(s)).toEqual(['workplace', 'a', 'b']);
    expect(s.tagList[1]).toMatchObject({ fullPath: '/x/a?page=2', query: { page: '2' }, title: 'menu.a' });
    expect(s.cacheTabList).toEqual(['workplace', 'a']);
  });

  it('closes one, others, left, right and all, never the default tab, and uncaches what closes', () => {
    let s = initialTabs();
    for (const n of ['a', 'b', 'c', 'd']) s = recordTab(s, tab(n));
    expect(names(closeTab(s, 'b'))).toEqual(['workplace', 'a', 'c', 'd']);
    expect(closeTab(s, 'b').cacheTabList).toEqual(['workplace', 'a', 'c', 'd']);
    expect(names(closeTab(s, 'workplace'))).toEqual(['workplace', 'a', 'b', 'c', 'd']);
    expect(names(closeOthers(s, 'c'))).toEqual(['workplace', 'c']);
    expect(names(closeLeft(s, 'c'))).toEqual(['workplace', 'c', 'd']);
    expect(names(closeRight(s, 'b'))).toEqual(['workplace', 'a', 'b']);
    expect(closeAll(s)).toEqual(initialTabs());
    expect(uncache(s, 'c').cacheTabList).toEqual(['workplace', 'a', 'b', 'd']);
  });

  it('shows the left neighbour after closing the active tab', () => {
    let s = initialTabs();
    for (const n of ['a', 'b']) s = recordTab(s, tab(n));
    expect(neighbourAfterClose(s, 'b').name).toBe('a');
    expect(neighbourAfterClose(s, 'a').name).toBe('workplace');
  });

  it('keeps a label a page gives its tab until the tab shows another location', () => {
    let s = recordTab(initialTabs(), tab('detail', { fullPath: '/t/detail?id=1' }));
    s = labelTab(s, 'detail', '/t/detail?id=1', '#1001 Blade stuck');
    s = recordTab(s, tab('detail', { fullPath: '/t/detail?id=1' }));
    expect(s.tagList[1]!.label).toBe('#1001 Blade stuck');
    // A late answer for a ticket no longer shown names nothing.
    s = recordTab(s, tab('detail', { fullPath: '/t/detail?id=2' }));
    expect(s.tagList[1]!.label).toBeUndefined();
    expect(labelTab(s, 'detail', '/t/detail?id=1', '#1001 Blade stuck')).toBe(s);
  });
});
