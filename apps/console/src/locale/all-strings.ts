import type { StringModules } from './i18n.ts';

/** Every feature's strings, as one lazily loaded chunk (see `loadAllStrings`). */
export const allStringModules: StringModules = import.meta.glob('../**/locale/{zh-CN,en-US}.ts', { eager: true });
