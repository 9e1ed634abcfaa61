import type { ArtifactStatus, Campaign, CampaignStatus, OtaJobState } from '@mowerline/contract';
import type { Translate } from '../locale/i18n.ts';

/** Arco tag colours of job states, shared by the campaign view and the upgrade log. */
export const jobStateColor: Record<OtaJobState, string> = {
  QUEUED: 'gray',
  SENT: 'cyan',
  DOWNLOADING: 'arcoblue',
  DOWNLOADED: 'blue',
  VERIFIED: 'purple',
  INSTALLING: 'orange',
  SUCCESS: 'green',
  FAILED: 'red',
  SKIPPED: 'lime',
  CANCELLED: 'gray',
};

/** Chart colours (hex) in the same order as the states. */
export const jobStateHex: Record<OtaJobState, string> = {
  QUEUED: '#86909C',
  SENT: '#14C9C9',
  DOWNLOADING: '#165DFF',
  DOWNLOADED: '#3491FA',
  VERIFIED: '#722ED1',
  INSTALLING: '#FF7D00',
  SUCCESS: '#00B42A',
  FAILED: '#F53F3F',
  SKIPPED: '#9FDB1D',
  CANCELLED: '#C9CDD4',
};

export const artifactStatusColor: Record<ArtifactStatus, string> = { draft: 'gray', released: 'green', deprecated: 'orange' };
/** An ending that updated nobody or had failures must not look like a green success. */
export const campaignStatusColor: Record<CampaignStatus, string> = {
  running: 'arcoblue',
  paused: 'orange',
  completed: 'green',
  completed_with_failures: 'orangered',
  completed_none: 'gold',
  cancelled: 'gray',
};

export const campaignEnded = (c: Campaign) => c.status !== 'running' && c.status !== 'paused';

/** "Updated 3 · Skipped 16 · Failed 0": what a campaign did, in words. */
export function outcomeText(c: Campaign, t: Translate): string {
  return t('ota.campaign.outcome', { updated: c.counts.SUCCESS ?? 0, skipped: c.counts.SKIPPED ?? 0, failed: c.counts.FAILED ?? 0 });
}

/** "4 min" or "45 s" until an instant (never below 1 s). */
function untilText(iso: string, now: number, t: Translate): string {
  const seconds = Math.max(1, Math.ceil((Date.parse(iso) - now) / 1000));
  return seconds < 60 ? t('ota.unit.seconds', { n: seconds }) : t('ota.unit.minutes', { n: Math.ceil(seconds / 60) });
}

/**
 * Where a rollout stands and what it waits for: "Phase 2 of 4 (20 %) — soaking, next phase in 4 min".
 * An ended campaign has no current phase.
 */
export function phaseText(c: Campaign, t: Translate, now = Date.now()): string {
  if (campaignEnded(c)) return t('ota.phase.ended');
  const where = t('ota.phase.of', { n: c.phaseIndex + 1, of: c.phases.length, percent: c.phases[c.phaseIndex] ?? 100 });
  if (c.status === 'paused') return `${where} — ${t(c.pauseReason === 'SUCCESS_THRESHOLD' ? 'ota.wait.thresholdMissed' : 'ota.wait.paused', { percent: c.successThresholdPercent })}`;
  const w = c.waiting;
  if (!w) return where;
  const params = {
    rate: c.ratePerMinute,
    window: c.window ? `${c.window.start}–${c.window.end} UTC` : '',
    percent: c.successThresholdPercent,
    time: w.until ? untilText(w.until, now, t) : '',
  };
  return `${where} — ${t(`ota.wait.${w.reason}`, params)}`;
}

export function formatBytes(size: number): string {
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / 1024 / 1024).toFixed(1)} MB`;
}

/** Parses an SN list from a CSV file or pasted text: one SN per line, or an `sn` column. */
export function parseSnList(text: string): string[] {
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  if (lines.length === 0) return [];
  const header = lines[0]!.toLowerCase().split(',').map((c) => c.trim());
  const column = header.indexOf('sn');
  const rows = column >= 0 ? lines.slice(1).map((l) => l.split(',')[column] ?? '') : lines.map((l) => l.split(',')[0] ?? '');
  return [...new Set(rows.map((sn) => sn.trim().toUpperCase()).filter(Boolean))];
}
