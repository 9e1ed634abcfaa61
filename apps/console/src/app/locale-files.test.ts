import { describe, expect, it } from 'vitest';

// Read the files directly: i18n.ts itself needs a browser (local storage).
const files = import.meta.glob<{ default: Record<string, string> }>('../**/locale/{zh-CN,en-US}.ts', { eager: true });

describe('locale files', () => {
  const folders = new Map<string, Record<string, Record<string, string>>>();
  for (const [file, mod] of Object.entries(files)) {
    const [, folder, lang] = /^(.*)\/(zh-CN|en-US)\.ts$/.exec(file) ?? [];
    if (!folder || !lang) continue;
    folders.set(folder, { ...folders.get(folder), [lang]: mod.default });
  }

  it.each([...folders.keys()])('%s has the same keys in zh-CN and en-US, none empty', (folder) => {
    const { 'zh-CN': zh = {}, 'en-US': en = {} } = folders.get(folder)!;
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
    expect([...Object.values(zh), ...Object.values(en)].filter((text) => !text.trim())).toEqual([]);
  });

  it('defines each key in one feature only', () => {
    const owners = new Map<string, string>();
    const clashes: string[] = [];
    for (const [folder, langs] of folders) {
      for (const key of Object.keys(langs['en-US'] ?? {})) {
        if (owners.has(key)) clashes.push(`${key}: ${owners.get(key)} and ${folder}`);
        owners.set(key, folder);
      }
    }
    expect(clashes).toEqual([]);
  });
});
