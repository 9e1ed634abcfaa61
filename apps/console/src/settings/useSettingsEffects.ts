import { useEffect } from 'react';
import { useSettings } from './settings.store.ts';
import { applyColorWeak, applyTheme, applyThemeColor } from './theme.ts';

/** Keeps the page in step with the stored settings: theme, colour weakness, theme colour. */
export function useSettingsEffects(): void {
  const theme = useSettings((s) => s.theme);
  const colorWeak = useSettings((s) => s.colorWeak);
  const themeColor = useSettings((s) => s.themeColor);
  useEffect(() => applyTheme(theme), [theme]);
  useEffect(() => applyColorWeak(colorWeak), [colorWeak]);
  useEffect(() => void applyThemeColor(themeColor, theme === 'dark'), [themeColor, theme]);
}
