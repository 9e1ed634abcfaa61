import { create } from 'zustand';
import { defaultLocale, fallbackLocale, locales, type Locale } from '@mowerline/contract';

export const LOCALE_KEY = 'locale';

type Strings = Record<string, string>;

export type StringModules = Record<string, { default: Strings }>;

const dictionaries: Record<Locale, Strings> = { 'zh-CN': {}, 'en-US': {} };
function merge(modules: StringModules): void {
  for (const [file, mod] of Object.entries(modules)) {
    const locale = locales.find((l) => file.endsWith(`/${l}.ts`));
    if (locale) Object.assign(dictionaries[locale], mod.default);
  }
}

// Every feature keeps its strings in `<feature>/locale/{zh-CN,en-US}.ts`. The sign-in screen's
// (and the error and version dialogs') load with the entry; the rest come in one chunk with the
// first page behind sign-in (`loadAllStrings`), so the sign-in page does not grow with features.
merge(
  import.meta.glob<{ default: Strings }>(['./{zh-CN,en-US}.ts', '../{app,login,version,not-found}/locale/{zh-CN,en-US}.ts'], {
    eager: true,
  }),
);

let allStrings: Promise<void> | null = null;

/** Loads every feature's strings (once); route loaders await it before a page renders. */
export function loadAllStrings(): Promise<void> {
  allStrings ??= import('./all-strings.ts').then(
    ({ allStringModules }) => {
      merge(allStringModules);
      useLocaleStore.setState((s) => ({ revision: s.revision + 1 }));
    },
    (error: unknown) => {
      allStrings = null;
      throw error;
    },
  );
  return allStrings;
}

/** Stored value, else zh-CN. */
export function storedLocale(): Locale {
  const stored = localStorage.getItem(LOCALE_KEY);
  return (locales as readonly string[]).includes(stored ?? '') ? (stored as Locale) : defaultLocale;
}

interface LocaleState {
  locale: Locale;
  /** Bumped when more strings arrive, so mounted components translate again. */
  revision: number;
  setLocale(locale: Locale): void;
}

export const useLocaleStore = create<LocaleState>((set) => ({
  locale: storedLocale(),
  revision: 0,
  setLocale(locale) {
    localStorage.setItem(LOCALE_KEY, locale);
    document.documentElement.lang = locale;
    set({ locale });
  },
}));

export type Translate = (key: string, params?: Record<string, string | number>) => string;

const pluralRules = new Map<Locale, Intl.PluralRules>();

/**
 * The key's plural form for a count among the params (`total`, `count` or `n`, a number or a
 * number formatted for display): `ticket.total.one`
 * for "1 ticket" where the language has one (Intl.PluralRules), else the key itself.
 */
function pluralKey(locale: Locale, key: string, params?: Record<string, string | number>): string {
  const given = params?.total ?? params?.count ?? params?.n;
  // Counts often arrive formatted for display ("1,234").
  const count = typeof given === 'string' ? Number(given.replace(/[^\d.-]/g, '')) : given;
  if (count === undefined || !Number.isFinite(count)) return key;
  let rules = pluralRules.get(locale);
  if (!rules) pluralRules.set(locale, (rules = new Intl.PluralRules(locale)));
  const variant = `${key}.${rules.select(count)}`;
  return variant in dictionaries[locale] ? variant : key;
}

/** Looks a key up in the given language, then in the fallback (en-US), else shows the key. */
export function translate(locale: Locale, key: string, params?: Record<string, string | number>): string {
  const text = dictionaries[locale][pluralKey(locale, key, params)] ?? dictionaries[fallbackLocale][key] ?? key;
  return params ? text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole)) : text;
}

/** `t` outside React (request policy, notifications). */
export const t: Translate = (key, params) => translate(useLocaleStore.getState().locale, key, params);

/** `t` in components; re-renders when the language changes. */
export function useT(): Translate {
  const locale = useLocaleStore((s) => s.locale);
  useLocaleStore((s) => s.revision);
  return (key, params) => translate(locale, key, params);
}

/** For tests and tooling: the keys of one language. */
export function localeKeys(locale: Locale): string[] {
  return Object.keys(dictionaries[locale]);
}
