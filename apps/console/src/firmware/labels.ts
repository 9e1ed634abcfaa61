import type { ArtifactStatus, CampaignStatus, OtaJobState } from '@mowerline/contract';

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
export const campaignStatusColor: Record<CampaignStatus, string> = { running: 'arcoblue', paused: 'orange', completed: 'green', cancelled: 'gray' };

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
