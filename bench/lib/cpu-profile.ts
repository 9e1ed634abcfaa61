import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

/** The profile `node --cpu-prof` wrote into `dir` (one profiled process per directory). */
export function findProfile(dir: string): string | undefined {
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  return file && path.join(dir, file);
}

/** Where a frame lives: the npm package, or the repository file. */
function origin(url: string): string {
  if (!url) return '(native / V8)';
  if (url.startsWith('wasm://')) return "WebAssembly (PGlite's PostgreSQL)";
  const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return 'node core';
  const repo = url.match(/\/(apps|packages)\/[^/]+\/src\/(.+)$/);
  return repo ? `${repo[1]}/…/${repo[2]}` : path.basename(url);
}

/**
 * Self time by frame and by package, in percent of all samples: where the process spent its CPU.
 * (idle) and (program) are kept: a large (idle) means the process was waiting, not working.
 */
export function summarizeProfile(file: string, top = 12) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[]; samples: number[] };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const counts = new Map<number, number>();
  for (const s of profile.samples) counts.set(s, (counts.get(s) ?? 0) + 1);
  const total = profile.samples.length;
  const frames = new Map<string, number>();
  const packages = new Map<string, number>();
  let idle = 0;
  for (const [id, n] of counts) {
    const f = byId.get(id)!.callFrame;
    if (f.functionName === '(idle)') {
      idle += n;
      continue;
    }
    const where = origin(f.url);
    const name = `${f.functionName || '(anonymous)'} — ${where}${f.url && !f.url.startsWith('node:') ? `:${f.lineNumber + 1}` : ''}`;
    frames.set(name, (frames.get(name) ?? 0) + n);
    packages.set(where, (packages.get(where) ?? 0) + n);
  }
  const busy = total - idle;
  const rank = (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, n]) => ({ name, percentOfBusy: (100 * n) / busy }));
  return { idlePercent: (100 * idle) / total, frames: rank(frames), packages: rank(packages) };
}

/**
 * Total time (self and everything it called) of the frames each matcher picks, in percent of busy
 * samples: what a whole step costs (the response serializer, the input validator), which self
 * time scatters over the libraries it calls. A sample counts once per matcher even when recursive.
 */
export function inclusiveShare(file: string, matchers: Record<string, (frame: { functionName: string; url: string; lineNumber: number }) => boolean>) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[]; samples: number[] };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const hits = Object.fromEntries(Object.keys(matchers).map((k) => [k, 0]));
  let busy = 0;
  for (const sample of profile.samples) {
    if (byId.get(sample)!.callFrame.functionName === '(idle)') continue;
    busy++;
    const found = new Set<string>();
    for (let id: number | undefined = sample; id !== undefined; id = parent.get(id)) {
      const frame = byId.get(id)!.callFrame;
      for (const [name, match] of Object.entries(matchers)) if (match(frame)) found.add(name);
    }
    for (const name of found) hits[name]!++;
  }
  return Object.fromEntries(Object.entries(hits).map(([name, n]) => [name, busy ? (100 * n) / busy : 0]));
}
