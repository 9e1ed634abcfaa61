import { create } from 'zustand';
import { defaultLocale, fallbackLocale, locales, type Locale } from '@mowerline/contract';

export const LOCALE_KEY = 'locale';

type Strings = Record<string, string>;

// Every feature keeps its strings in `<feature>/locale/{zh-CN,en-US}.ts`; they are merged here.
const modules = import.meta.glob<{ default: Strings }>('../**/locale/*.ts', { eager: true });
const dictionaries: Record<Locale, Strings> = { 'zh-CN': {}, 'en-US': {} };
for (const [file, mod] of Object.entries(modules)) {
  const locale = locales.find((l) => file.endsWith(`/${l}.ts`));
  if (locale) Object.assign(dictionaries[locale], mod.default);
}

/** Stored value, else zh-CN (spec §9). */
export function storedLocale(): Locale {
  const stored = localStorage.getItem(LOCALE_KEY);
  return (locales as readonly string[]).includes(stored ?? '') ? (stored as Locale) : defaultLocale;
}

interface LocaleState {
  locale: Locale;
  setLocale(locale: Locale): void;
}

export const useLocaleStore = create<LocaleState>((set) => ({
  locale: storedLocale(),
  setLocale(locale) {
    localStorage.setItem(LOCALE_KEY, locale);
    document.documentElement.lang = locale;
    set({ locale });
  },
}));

export type Translate = (key: string, params?: Record<string, string | number>) => string;

/** Looks a key up in the given language, then in the fallback (en-US), else shows the key. */
export function translate(locale: Locale, key: string, params?: Record<string, string | number>): string {
  const text = dictionaries[locale][key] ?? dictionaries[fallbackLocale][key] ?? key;
  return params ? text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole)) : text;
}

/** `t` outside React (request policy, notifications). */
export const t: Translate = (key, params) => translate(useLocaleStore.getState().locale, key, params);

/** `t` in components; re-renders when the language changes. */
export function useT(): Translate {
  const locale = useLocaleStore((s) => s.locale);
  return (key, params) => translate(locale, key, params);
}

/** For tests and tooling: the keys of one language. */
export function localeKeys(locale: Locale): string[] {
  return Object.keys(dictionaries[locale]);
}
