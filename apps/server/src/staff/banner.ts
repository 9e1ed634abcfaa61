/** Lines in a frame, so a one-time secret stands out of the log around it. */
export function framed(lines: string[]): string {
  const rule = '─'.repeat(Math.max(62, ...lines.map((l) => l.length + 2)));
  return ['', `  ┌${rule}`, ...lines.map((l) => `  │ ${l}`), `  └${rule}`, ''].join('\n');
}
