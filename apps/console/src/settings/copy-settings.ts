import { defaultSettings, type AppSettings } from './settings.store.ts';

/** The user-editable app settings as JSON, in the order of the defaults. */
export function settingsJson(settings: AppSettings): string {
  const picked = Object.fromEntries(Object.keys(defaultSettings).map((key) => [key, settings[key as keyof AppSettings]]));
  return JSON.stringify(picked, null, 2);
}

/** Clipboard API where the page is a secure context; the old textarea copy elsewhere (plain-http LAN hosts). */
export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
  const area = document.createElement('textarea');
  area.value = text;
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('copy refused');
}
