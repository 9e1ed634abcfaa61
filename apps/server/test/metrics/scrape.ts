import parsePrometheusTextFormat from 'parse-prometheus-text-format';

export interface Sample {
  /** The sample's own name: a histogram's `_bucket`, `_sum` and `_count` lines keep their suffix. */
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  help: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  samples: Sample[];
}

export type Families = Map<string, Family>;

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+(-?\d+))?$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

function number(text: string, line: string): number {
  if (text === '+Inf' || text === 'Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  if (text === 'NaN') return NaN;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) throw new Error(`not a sample value: ${line}`);
  return Number(text);
}

/** `a="x",b="y\"z"` → labels, refusing anything the format does not allow. */
function labels(text: string | undefined, line: string): Record<string, string> {
  const out: Record<string, string> = {};
  let rest = text ?? '';
  while (rest.length > 0) {
    const m = /^([^=,\s]+)="((?:[^"\\\n]|\\[\\"n])*)"(,?)/.exec(rest);
    if (!m || !LABEL_NAME.test(m[1]!)) throw new Error(`bad labels: ${line}`);
    if (m[1]! in out) throw new Error(`label ${m[1]} twice: ${line}`);
    out[m[1]!] = m[2]!.replace(/\\(.)/g, (_w, c: string) => (c === 'n' ? '\n' : c));
    rest = rest.slice(m[0].length);
    if (!m[3] && rest.length > 0) throw new Error(`bad labels: ${line}`);
  }
  return out;
}

/**
 * A strict reader of the Prometheus text format (0.0.4): HELP and TYPE before a family's samples,
 * a family's samples together, valid names, escapes and values, each series once, and histograms
 * whose buckets are cumulative and end with `+Inf` equal to `_count`. The published
 * parse-prometheus-text-format reads the same text as a second opinion (it throws on a line it
 * cannot read, and must find the same families), though it keeps no labels of histograms.
 */
export function parseExposition(text: string): Families {
  const families: Families = new Map();
  let current: Family | undefined;
  const seen = new Set<string>();
  const familyOf = (sampleName: string) => {
    for (const f of [current, families.get(sampleName)]) {
      if (!f) continue;
      if (f.name === sampleName) return f;
      if ((f.type === 'histogram' || f.type === 'summary') && [`${f.name}_sum`, `${f.name}_count`].includes(sampleName)) return f;
      if (f.type === 'histogram' && sampleName === `${f.name}_bucket`) return f;
    }
    return undefined;
  };
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const meta = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
    if (meta) {
      const [, kind, name, rest] = meta as unknown as [string, 'HELP' | 'TYPE', string, string];
      if (!NAME.test(name)) throw new Error(`bad metric name: ${line}`);
      if (current?.name !== name) {
        if (families.has(name)) throw new Error(`family ${name} split in two: ${line}`);
        current = { name, help: '', type: 'untyped', samples: [] };
        families.set(name, current);
      }
      if (kind === 'HELP') current.help = rest;
      else if (!TYPES.has(rest)) throw new Error(`unknown type: ${line}`);
      else if (current.samples.length > 0) throw new Error(`TYPE after samples: ${line}`);
      else current.type = rest as Family['type'];
      continue;
    }
    if (line.startsWith('#')) continue;
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const family = familyOf(m[1]!);
    if (!family || family !== current) throw new Error(`sample outside its family: ${line}`);
    const sample = { name: m[1]!, labels: labels(m[2], line), value: number(m[3]!, line) };
    const key = `${sample.name}${JSON.stringify(Object.entries(sample.labels).sort())}`;
    if (seen.has(key)) throw new Error(`series twice: ${line}`);
    seen.add(key);
    family.samples.push(sample);
  }
  for (const family of families.values()) if (family.type === 'histogram') checkHistogram(family);

  // The second opinion: same families, same types.
  const other = parsePrometheusTextFormat(text);
  const theirs = new Map(other.map((f) => [f.name, f.type.toLowerCase()]));
  const ours = new Map([...families.values()].map((f) => [f.name, f.type]));
  if (JSON.stringify([...theirs].sort()) !== JSON.stringify([...ours].sort())) throw new Error('parse-prometheus-text-format read other families');
  return families;
}

function checkHistogram(family: Family) {
  const series = new Map<string, { buckets: Array<[number, number]>; count?: number; sum?: number }>();
  for (const s of family.samples) {
    const { le, ...rest } = s.labels;
    const key = JSON.stringify(Object.entries(rest).sort());
    const entry = series.get(key) ?? { buckets: [] };
    series.set(key, entry);
    if (s.name.endsWith('_bucket')) {
      if (le === undefined) throw new Error(`${family.name}: a bucket without le`);
      entry.buckets.push([number(le, le), s.value]);
    } else if (s.name.endsWith('_count')) entry.count = s.value;
    else if (s.name.endsWith('_sum')) entry.sum = s.value;
  }
  for (const [key, { buckets, count, sum }] of series) {
    const last = buckets[buckets.length - 1];
    if (!last || last[0] !== Infinity || last[1] !== count || sum === undefined) throw new Error(`${family.name}${key}: incomplete histogram`);
    for (let i = 1; i < buckets.length; i++) {
      if (buckets[i]![0] <= buckets[i - 1]![0] || buckets[i]![1] < buckets[i - 1]![1]) throw new Error(`${family.name}${key}: buckets not cumulative`);
    }
  }
}

/** A scrape as Prometheus makes it: the status, and the text read strictly (a malformed exposition throws). */
export async function scrape(url: string, token?: string): Promise<{ status: number; contentType: string | null; families: Families }> {
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const text = await res.text();
  return { status: res.status, contentType: res.headers.get('content-type'), families: res.status === 200 ? parseExposition(text) : new Map() };
}

/**
 * The value of the sample of `name` whose labels include `labels`: a counter's or gauge's value,
 * a histogram's `_count` (undefined when there is none).
 */
export function valueOf(families: Families, name: string, labels: Record<string, string> = {}): number | undefined {
  const family = families.get(name);
  const own = family?.type === 'histogram' ? `${name}_count` : name;
  const sample = family?.samples.find((s) => s.name === own && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return sample?.value;
}

/** Every label name and value of a family's samples (a histogram's `le` aside). */
export function labelsOf(family: Family | undefined): Array<[string, string]> {
  return (family?.samples ?? []).flatMap((s) => Object.entries(s.labels).filter(([k]) => k !== 'le'));
}
