import { create } from 'zustand';
import * as tabs from './tab-bar.ts';

interface TabBarStore extends tabs.TabsState {
  record(tab: tabs.TabItem): void;
  label(name: string, fullPath: string, label: string | undefined): void;
  close(name: string): void;
  closeOthers(name: string): void;
  closeLeft(name: string): void;
  closeRight(name: string): void;
  closeAll(): void;
  uncache(name: string): void;
  cache(name: string): void;
  reset(): void;
}

/** The tab bar: open tabs and the cache list; the rules live in tab-bar.ts. */
export const useTabBar = create<TabBarStore>((set) => ({
  ...tabs.initialTabs(),
  record: (tab) => set((s) => tabs.recordTab(s, tab)),
  label: (name, fullPath, label) => set((s) => tabs.labelTab(s, name, fullPath, label)),
  close: (name) => set((s) => tabs.closeTab(s, name)),
  closeOthers: (name) => set((s) => tabs.closeOthers(s, name)),
  closeLeft: (name) => set((s) => tabs.closeLeft(s, name)),
  closeRight: (name) => set((s) => tabs.closeRight(s, name)),
  closeAll: () => set((s) => tabs.closeAll(s)),
  uncache: (name) => set((s) => tabs.uncache(s, name)),
  cache: (name) => set((s) => tabs.cache(s, name)),
  reset: () => set(tabs.initialTabs()),
}));
