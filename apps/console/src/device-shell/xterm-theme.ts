import type { ITheme } from '@xterm/xterm';

/** Terminal colours that sit well in Arco's light and dark themes (the terminal itself stays dark). */
export const terminalTheme: ITheme = {
  background: '#17171a',
  foreground: '#e5e6eb',
  cursor: '#4080ff',
  selectionBackground: '#4080ff55',
  black: '#1d1d22',
  red: '#f76965',
  green: '#27c346',
  yellow: '#ff9a2e',
  blue: '#4080ff',
  magenta: '#d55fde',
  cyan: '#14c9c9',
  white: '#e5e6eb',
  brightBlack: '#6b6b72',
  brightRed: '#f98981',
  brightGreen: '#4cd263',
  brightYellow: '#ffb65d',
  brightBlue: '#6aa1ff',
  brightMagenta: '#e37ee8',
  brightCyan: '#3fd4cf',
  brightWhite: '#ffffff',
};

export const terminalOptions = {
  theme: terminalTheme,
  fontFamily: 'Menlo, Consolas, "DejaVu Sans Mono", "Courier New", monospace',
  fontSize: 13,
  scrollback: 5000,
  cursorBlink: true,
  convertEol: false,
};
