import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { execFileSync } from 'node:child_process';

const CLK_TCK = 100;

/**
 * CPU seconds (user + system) a process has used so far, from /proc (works for processes we did not
 * start); with `tid`, one of its threads only (the main thread's id is the pid).
 */
export function cpuSeconds(pid: number, tid?: number): number {
  try {
    const stat = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
  } catch {
    return 0;
  }
}

/** Pids of the processes with this command name (e.g. every `postgres` backend). */
export function pidsByName(name: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === name) pids.push(Number(entry));
    } catch {
      // the process ended meanwhile
    }
  }
  return pids;
}

export const cpuSecondsOf = (name: string) => pidsByName(name).reduce((s, pid) => s + cpuSeconds(pid), 0);

/** CPU seconds per live process of this name: compare two with cpuSecondsBetween. */
export const cpuSecondsByPid = (name: string) => new Map(pidsByName(name).map((pid) => [pid, cpuSeconds(pid)]));

/**
 * CPU used between two cpuSecondsByPid snapshots. Per process, so a backend that exits in between
 * (another database dropped on this shared machine) takes nothing away; one that started counts
 * in full; one that came and went in between is missed.
 */
export function cpuSecondsBetween(a: Map<number, number>, b: Map<number, number>): number {
  let sum = 0;
  for (const [pid, cpu] of b) sum += cpu - (a.get(pid) ?? 0);
  return sum;
}

/** The machine line of RESULTS.md. */
export function machine() {
  const load = os.loadavg();
  let cpuModel = os.cpus()[0]?.model ?? 'unknown';
  cpuModel = cpuModel.replace(/\s+/g, ' ').trim();
  const nproc = Number(execFileSync('nproc').toString().trim());
  return {
    nproc,
    cpuModel,
    memory: `${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB`,
    node: process.version,
    kernel: `${os.type()} ${os.release()}`,
    load: load.map((l) => l.toFixed(2)).join(' / '),
  };
}
