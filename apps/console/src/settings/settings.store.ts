import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import type { RouteDef } from '@mowerline/contract';

/** Spec §3 app settings with the §9 defaults. */
export interface AppSettings {
  theme: 'light' | 'dark';
  themeColor: string;
  menuWidth: number;
  device: 'desktop' | 'mobile';
  navbar: boolean;
  menu: boolean;
  topMenu: boolean;
  footer: boolean;
  tabBar: boolean;
  menuFromServer: boolean;
  colorWeak: boolean;
  menuCollapse: boolean;
}

/** The menu widths the layout can use; anything else is refused in the drawer, never clamped silently. */
export const MENU_WIDTH = { min: 120, max: 400 } as const;

export const defaultSettings: AppSettings = {
  theme: 'light',
  themeColor: '#165DFF',
  menuWidth: 220,
  device: 'desktop',
  navbar: true,
  menu: true,
  topMenu: false,
  footer: true,
  tabBar: true,
  menuFromServer: false,
  colorWeak: false,
  menuCollapse: false,
};

interface SettingsState extends AppSettings {
  /** The settings drawer is open. */
  globalSettings: boolean;
  /** Menu fetched from the server when menuFromServer is on; cleared on logout. */
  serverMenu: RouteDef[];
  update(patch: Partial<AppSettings & { globalSettings: boolean }>): void;
  setServerMenu(menu: RouteDef[]): void;
}

export const SETTINGS_KEY = 'mowerline-settings';

export const useSettings = create<SettingsState>()(
  persist(
    (set) => ({
      ...defaultSettings,
      globalSettings: false,
      serverMenu: [],
      update: (patch) =>
        // Spec §4: turning topMenu on un-collapses the menu.
        set(patch.topMenu ? { ...patch, menuCollapse: false } : patch),
      setServerMenu: (serverMenu) => set({ serverMenu }),
    }),
    {
      name: SETTINGS_KEY,
      partialize: ({ globalSettings: _g, serverMenu: _m, update: _u, setServerMenu: _s, ...settings }) => settings,
    },
  ),
);
