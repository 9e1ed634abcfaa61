import { DEFAULT_ROUTE } from '@mowerline/contract';

/** A tab of the tab bar: `title` is the route's locale key, translated when drawn. */
export interface TabItem {
  title: string;
  name: string;
  fullPath: string;
  query: Record<string, string>;
  ignoreCache: boolean;
  /** What the page itself calls this tab once its data is in (`#1234 Blade stuck`), drawn instead of `title`. */
  label?: string;
}

/** Spec §3: the default tab is workplace; it is always first and cannot be closed. */
export const DEFAULT_TAB: TabItem = {
  title: 'menu.dashboard.workplace',
  name: DEFAULT_ROUTE.name,
  fullPath: DEFAULT_ROUTE.fullPath,
  query: {},
  ignoreCache: false,
};

export interface TabsState {
  tagList: TabItem[];
  /** Names of the pages kept alive while their tab is in the background. */
  cacheTabList: string[];
}

export const initialTabs = (): TabsState => ({ tagList: [DEFAULT_TAB], cacheTabList: [DEFAULT_TAB.name] });

const withCache = (list: string[], tab: TabItem) => (tab.ignoreCache || list.includes(tab.name) ? list : [...list, tab.name]);

/** Records a shown route: one tab per route name; a new query updates that tab's location. */
export function recordTab(state: TabsState, tab: TabItem): TabsState {
  const index = state.tagList.findIndex((t) => t.name === tab.name);
  if (index >= 0) {
    const current = state.tagList[index]!;
    if (current.fullPath === tab.fullPath) return { ...state, cacheTabList: withCache(state.cacheTabList, tab) };
    // Another location of the page (another ticket): its own label comes when its page has it.
    const tagList = state.tagList.with(index, { ...current, fullPath: tab.fullPath, query: tab.query, label: undefined });
    return { tagList, cacheTabList: withCache(state.cacheTabList, tab) };
  }
  return { tagList: [...state.tagList, tab], cacheTabList: withCache(state.cacheTabList, tab) };
}

/** Names the tab of `name` at `fullPath` (a later location of the page keeps the label out). */
export function labelTab(state: TabsState, name: string, fullPath: string, label: string | undefined): TabsState {
  const index = state.tagList.findIndex((t) => t.name === name && t.fullPath === fullPath);
  if (index < 0 || state.tagList[index]!.label === label) return state;
  return { ...state, tagList: state.tagList.with(index, { ...state.tagList[index]!, label }) };
}

/** Keeps the tabs `keep` says yes to (and always the default tab); their pages stay cached, the others are dropped. */
function keepTabs(state: TabsState, keep: (tab: TabItem, index: number) => boolean): TabsState {
  const tagList = state.tagList.filter((tab, index) => tab.name === DEFAULT_TAB.name || keep(tab, index));
  const names = new Set(tagList.map((t) => t.name));
  return { tagList, cacheTabList: state.cacheTabList.filter((n) => names.has(n)) };
}

const indexOf = (state: TabsState, name: string) => state.tagList.findIndex((t) => t.name === name);

export const closeTab = (state: TabsState, name: string) => keepTabs(state, (t) => t.name !== name);
export const closeOthers = (state: TabsState, name: string) => keepTabs(state, (t) => t.name === name);
export const closeLeft = (state: TabsState, name: string) => keepTabs(state, (_t, i) => i >= indexOf(state, name));
export const closeRight = (state: TabsState, name: string) => keepTabs(state, (_t, i) => i <= indexOf(state, name));
export const closeAll = (state: TabsState) => keepTabs(state, () => false);

/** Drops a page from the cache (reload): the next visit builds it fresh. */
export const uncache = (state: TabsState, name: string): TabsState => ({ ...state, cacheTabList: state.cacheTabList.filter((n) => n !== name) });
export const cache = (state: TabsState, name: string): TabsState =>
  state.cacheTabList.includes(name) ? state : { ...state, cacheTabList: [...state.cacheTabList, name] };

/** The tab to show after closing `name` while it is the active one: its left neighbour. */
export function neighbourAfterClose(state: TabsState, name: string): TabItem {
  const index = indexOf(state, name);
  return state.tagList[index - 1] ?? state.tagList[index + 1] ?? DEFAULT_TAB;
}
