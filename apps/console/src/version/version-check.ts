import { VERSION_KEY } from './version-key.ts';

export { VERSION_KEY };

export type VersionVerdict = 'first-visit' | 'same' | 'changed';

/** Spec §5: the first visit stores the version; a different one asks to reload. */
export function compareVersion(stored: string | null, current: string): VersionVerdict {
  if (stored === null) return 'first-visit';
  return stored === current ? 'same' : 'changed';
}

let asking = false;
/** A version the user chose not to load now: asked once per page life, not on every navigation. */
let postponed: string | null = null;

/**
 * Fetches `{origin}/version.json?ts={timestamp}` and compares it with the stored version. Never
 * blocks navigation; every failure (offline, dev server without the file, bad JSON) is silent.
 */
export function checkVersion(): void {
  void (async () => {
    try {
      const response = await fetch(`${window.location.origin}/version.json?ts=${Date.now()}`, { cache: 'no-store' });
      if (!response.ok) return;
      const { version } = (await response.json()) as { version?: unknown };
      if (typeof version !== 'string' || !version) return;
      const verdict = compareVersion(localStorage.getItem(VERSION_KEY), version);
      if (verdict === 'first-visit') localStorage.setItem(VERSION_KEY, version);
      if (verdict !== 'changed' || asking || postponed === version) return;
      asking = true;
      // The dialog (and Arco's Modal) loads only when there is something to ask.
      const { askToReload } = await import('./version-dialog.ts');
      askToReload(version, (reload) => {
        asking = false;
        if (!reload) postponed = version;
      });
    } catch {
      asking = false;
    }
  })();
}
