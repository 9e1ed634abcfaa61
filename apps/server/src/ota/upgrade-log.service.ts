import { Readable } from 'node:stream';
import { and, count, desc, eq, gte, like, lt, lte, type SQL } from 'drizzle-orm';
import type { JobHistoryEntry, Page, UpgradeLogQuery, UpgradeRecord } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { pageOffset, prefixPattern } from '../db/helpers.ts';
import { devices } from '../devices/devices.sql.ts';
import { AppError } from '../http/envelope.ts';
import { otaArtifacts } from '../firmware/firmware.sql.ts';
import { otaCampaigns, otaJobs } from './ota.sql.ts';

type Filter = Omit<UpgradeLogQuery, 'page' | 'pageSize'>;

const columns = { job: otaJobs, campaignName: otaCampaigns.name, kind: otaArtifacts.kind };

function conditions(f: Filter): SQL | undefined {
  const where: SQL[] = [];
  if (f.sn) where.push(like(otaJobs.sn, prefixPattern(f.sn)));
  if (f.campaignId) where.push(eq(otaJobs.campaignId, f.campaignId));
  if (f.state) where.push(eq(otaJobs.state, f.state));
  if (f.kind) where.push(eq(otaArtifacts.kind, f.kind));
  if (f.reason) where.push(eq(otaJobs.reason, f.reason));
  if (f.from) where.push(gte(otaJobs.updatedAt, new Date(f.from)));
  if (f.to) where.push(lte(otaJobs.updatedAt, new Date(f.to)));
  return and(...where);
}

function base(db: Db) {
  return db
    .select(columns)
    .from(otaJobs)
    .innerJoin(otaCampaigns, eq(otaCampaigns.id, otaJobs.campaignId))
    .innerJoin(otaArtifacts, eq(otaArtifacts.id, otaCampaigns.artifactId));
}

type Row = Awaited<ReturnType<ReturnType<typeof base>['execute']>>[number];

function toRecord(r: Row): UpgradeRecord {
  const j = r.job;
  return {
    id: j.id,
    campaignId: j.campaignId,
    campaignName: r.campaignName,
    kind: r.kind,
    sn: j.sn,
    fromVersion: j.fromVersion,
    toVersion: j.toVersion,
    state: j.state,
    progress: j.progress,
    reason: j.reason,
    retries: j.attempt,
    history: j.history.map((h: JobHistoryEntry) => ({ ...h, at: new Date(h.at).toISOString() })),
    createdAt: j.createdAt.toISOString(),
    updatedAt: j.updatedAt.toISOString(),
    finishedAt: j.finishedAt?.toISOString() ?? null,
  };
}

/** GET /api/admin/device/upgrade-log: one record per device per campaign, newest activity first. */
export async function listUpgradeLog(db: Db, query: UpgradeLogQuery): Promise<Page<UpgradeRecord>> {
  const where = conditions(query);
  const [rows, [total]] = await Promise.all([
    base(db).where(where).orderBy(desc(otaJobs.updatedAt), desc(otaJobs.id)).limit(query.pageSize).offset(pageOffset(query)),
    db
      .select({ n: count() })
      .from(otaJobs)
      .innerJoin(otaCampaigns, eq(otaCampaigns.id, otaJobs.campaignId))
      .innerJoin(otaArtifacts, eq(otaArtifacts.id, otaCampaigns.artifactId))
      .where(where),
  ]);
  return { list: rows.map(toRecord), total: total?.n ?? 0 };
}

/** Every campaign a device was part of, newest first (the device detail's upgrade history). */
export async function deviceUpgradeHistory(db: Db, sn: string): Promise<UpgradeRecord[]> {
  const rows = await base(db).where(eq(otaJobs.sn, sn)).orderBy(desc(otaJobs.id)).limit(100);
  // No history: an unknown SN says so rather than looking like a device never upgraded.
  if (rows.length === 0) {
    const [device] = await db.select({ sn: devices.sn }).from(devices).where(eq(devices.sn, sn)).limit(1);
    if (!device) throw new AppError('SN_NOT_FOUND', { sn });
  }
  return rows.map(toRecord);
}

const csvHeader = ['sn', 'campaign_id', 'campaign', 'kind', 'from_version', 'to_version', 'state', 'reason', 'retries', 'updated_at', 'finished_at', 'history'];

function csvCell(value: string | number | null): string {
  const s = value === null ? '' : String(value);
  // Spreadsheet formula injection: a leading = + - @ is neutralised.
  const safe = /^[=+\-@]/.test(s) ? `'${s}` : s;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** The filtered log as CSV, streamed in keyset pages so an export of any size keeps memory flat. */
export function exportUpgradeLog(db: Db, filter: Filter): Readable {
  const PAGE = 1000;
  async function* lines() {
    yield `\uFEFF${csvHeader.join(',')}\n`;
    let after: number | undefined;
    for (;;) {
      const rows = await base(db)
        .where(and(conditions(filter), after === undefined ? undefined : lt(otaJobs.id, after)))
        .orderBy(desc(otaJobs.id))
        .limit(PAGE);
      for (const row of rows) {
        const r = toRecord(row);
        const history = r.history.map((h) => `${h.state}@${h.at}${h.reason ? `(${h.reason})` : ''}`).join(' > ');
        yield `${[r.sn, r.campaignId, r.campaignName, r.kind, r.fromVersion, r.toVersion, r.state, r.reason, r.retries, r.updatedAt, r.finishedAt, history].map(csvCell).join(',')}\n`;
      }
      if (rows.length < PAGE) return;
      after = rows[rows.length - 1]!.job.id;
    }
  }
  return Readable.from(lines());
}
