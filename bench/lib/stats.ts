/** Small statistics and formatting helpers shared by the benchmarks. */
import { writeFileSync } from 'node:fs';

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  // Nearest rank: with few samples p99 is the largest one, never an interpolated value nobody saw.
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

export const median = (values: number[]) => percentile(values, 50);

/** "1,234" / "12.3" / "0.042": enough digits to compare, no false precision. */
export function num(n: number, digits?: number): string {
  if (!Number.isFinite(n)) return '–';
  const d = digits ?? (Math.abs(n) >= 100 ? 0 : Math.abs(n) >= 10 ? 1 : Math.abs(n) >= 1 ? 2 : 3);
  return n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
}

export const ms = (n: number) => `${num(n, Math.abs(n) >= 100 ? 0 : 1)} ms`;
export const ratio = (a: number, b: number) => (b > 0 ? `${num(a / b, 2)}×` : '–');
export const mib = (bytes: number) => `${num(bytes / 1024 / 1024, 1)} MiB`;
export const kib = (bytes: number) => `${num(bytes / 1024, 1)} KiB`;

/** A markdown table. */
export function table(head: string[], rows: Array<Array<string | number>>): string {
  const line = (cells: Array<string | number>) => `| ${cells.map(String).join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

export const sleep = (msTime: number) => new Promise<void>((r) => setTimeout(r, msTime));

export function log(line: string): void {
  process.stdout.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
}

/** What a benchmark hands to the runner: its section of RESULTS.md and the figures for the summary. */
export interface BenchResult {
  name: string;
  markdown: string;
  headline: Array<{ what: string; value: string; target: string; met: boolean | null }>;
}

/** The entry of a benchmark file run on its own: JSON for bench/run.ts, or the markdown on stdout. */
export async function main(run: () => Promise<BenchResult>): Promise<void> {
  const result = await run();
  if (process.env.BENCH_RESULT_FILE) writeFileSync(process.env.BENCH_RESULT_FILE, JSON.stringify(result));
  else process.stdout.write(`${result.markdown}\n`);
  // Sockets of stopped clients can keep the loop alive for a while; the work is done.
  process.exit(0);
}
