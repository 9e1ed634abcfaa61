/**
 * `npm run bench [-- ingest api console]`: runs the benchmarks one after another in one run (each
 * in its own process, so one cannot leave memory or timers behind for the next) and writes
 * bench/RESULTS.md: machine, date, command, a summary against the performance targets, and each
 * benchmark's figures with the baseline it was measured against in the same run.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { machine } from './lib/proc.ts';
import { log, table, type BenchResult } from './lib/stats.ts';

const all = ['ingest', 'state-upsert', 'api', 'tasks', 'tickets', 'ota', 'request-overhead', 'console'];
const chosen = process.argv.slice(2).filter((a) => all.includes(a));
const names = chosen.length > 0 ? chosen : all;
const started = new Date();
const before = machine();
const dir = mkdtempSync(path.join(tmpdir(), 'mowerline-bench-'));

const results: Array<BenchResult | { name: string; error: string }> = [];
/** Rewritten after every benchmark, so an interrupted run still leaves what it measured. */
function writeResults() {
  const after = machine();
  const env = Object.entries(process.env)
    .filter(([k]) => k.startsWith('BENCH_'))
    .map(([k, v]) => `${k}=${v} `)
    .join('');
  const headline = results.flatMap((r) => ('headline' in r ? r.headline : []));
  const mark = (met: boolean | null) => (met === null ? '' : met ? '✅ met' : '❌ missed');
  const doc = [
    '# Benchmark results',
    '',
    'Written by `npm run bench` (bench/run.ts); see README "Performance" for how to read and reproduce them. Times are medians unless a percentile is named; every ratio compares two figures measured side by side in this run.',
    '',
    `- Date: ${started.toISOString()} → ${new Date().toISOString()}`,
    `- Command: \`${env}npm run bench${chosen.length ? ` -- ${chosen.join(' ')}` : ''}\``,
    `- Machine: ${before.nproc} CPUs (${before.cpuModel}), ${before.memory} memory, ${before.kernel}, Node ${before.node}`,
    `- Load average (1 / 5 / 15 min) at start: ${before.load}; at end: ${after.load}. The machine is shared: a load above ${before.nproc} means other work competed for the CPUs during the run.`,
    '',
    '## Against the targets',
    '',
    table(['figure', 'measured', 'target', ''], headline.map((h) => [h.what, h.value, h.target, mark(h.met)])),
    '',
    ...results.flatMap((r) => [`## ${r.name}`, '', 'error' in r ? `Failed: ${r.error}` : r.markdown, '']),
  ].join('\n');
  writeFileSync(path.join(import.meta.dirname, 'RESULTS.md'), doc);
}

for (const name of names) {
  log(`${name}: starting`);
  const out = path.join(dir, `${name}.json`);
  const t = Date.now();
  const child = spawnSync(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, `${name}.ts`)], {
    env: { ...process.env, BENCH_RESULT_FILE: out },
    stdio: 'inherit',
  });
  try {
    results.push(JSON.parse(readFileSync(out, 'utf8')) as BenchResult);
  } catch {
    results.push({ name, error: `exited with ${child.status ?? child.signal} after ${Math.round((Date.now() - t) / 1000)} s without results (see the run's output)` });
  }
  log(`${name}: done in ${Math.round((Date.now() - t) / 1000)} s`);
  writeResults();
}
rmSync(dir, { recursive: true, force: true });

log(`wrote bench/RESULTS.md`);
