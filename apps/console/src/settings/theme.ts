import { defaultSettings } from './settings.store.ts';

/** Spec §4: dark sets the attribute on the page body, light removes it. */
export function applyTheme(theme: 'light' | 'dark'): void {
  if (theme === 'dark') document.body.setAttribute('arco-theme', 'dark');
  else document.body.removeAttribute('arco-theme');
}

/**
 * Spec §4: colorWeak applies an 80 % invert filter to the page, off removes it. It goes on the
 * root element: a filter there (unlike on body) does not re-anchor the fixed navbar and drawers.
 */
export function applyColorWeak(on: boolean): void {
  document.documentElement.style.filter = on ? 'invert(80%)' : '';
}

let applied = 0;

/**
 * Theme colour: Arco's ten-step palette generated from the colour (light or dark variant) is set
 * as `--primary-1..10` ("r,g,b") on body. The default colour is Arco's own palette, so it needs
 * no overrides and the palette generator loads only for a custom colour.
 */
export async function applyThemeColor(color: string, dark: boolean): Promise<void> {
  const run = ++applied;
  const style = document.body.style;
  if (color.toLowerCase() === defaultSettings.themeColor.toLowerCase()) {
    for (let i = 1; i <= 10; i++) style.removeProperty(`--primary-${i}`);
    return;
  }
  const { generate, getRgbStr } = await import('@arco-design/color');
  if (run !== applied) return;
  generate(color, { list: true, dark }).forEach((step, index) => style.setProperty(`--primary-${index + 1}`, getRgbStr(step)));
}
