// @arco-design/color ships no typings; these are the two functions the theme colour uses.
declare module '@arco-design/color' {
  type Format = 'hex' | 'rgb' | 'hsl';
  export function generate(color: string, options: { list: true; dark?: boolean; format?: Format }): string[];
  export function generate(color: string, options?: { index?: number; dark?: boolean; format?: Format }): string;
  /** 'r,g,b' — the form Arco's `rgb(var(--primary-6))` CSS variables take. */
  export function getRgbStr(color: string): string;
}
