import { and, count, desc, eq, isNull } from 'drizzle-orm';
import { compareVersions, type AppLatest, type AppPlatform, type AppVersion, type Page } from '@mowerline/contract';
import type { Locale } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { isUniqueViolation, pageOffset } from '../db/helpers.ts';
import { AppError } from '../http/envelope.ts';
import type { Principal } from '../http/auth.ts';
import { appVersions, type AppVersionRow } from './app-version.sql.ts';

export function toAppVersion(r: AppVersionRow): AppVersion {
  return {
    id: r.id,
    platform: r.platform,
    version: r.version,
    build: r.build,
    changelogZh: r.changelogZh,
    changelogEn: r.changelogEn,
    forceUpdate: r.forceUpdate,
    minSupportedVersion: r.minSupportedVersion,
    downloadUrl: r.downloadUrl,
    createdBy: r.createdByName,
    createdAt: r.createdAt.toISOString(),
    withdrawnAt: r.withdrawnAt ? r.withdrawnAt.toISOString() : null,
    withdrawnBy: r.withdrawnByName,
  };
}

export async function listAppVersions(db: Db, q: { page: number; pageSize: number; platform?: AppPlatform }): Promise<Page<AppVersion>> {
  const where = q.platform ? eq(appVersions.platform, q.platform) : undefined;
  const [rows, [total]] = await Promise.all([
    db.select().from(appVersions).where(where).orderBy(desc(appVersions.build), desc(appVersions.id)).limit(q.pageSize).offset(pageOffset(q)),
    db.select({ n: count() }).from(appVersions).where(where),
  ]);
  return { list: rows.map(toAppVersion), total: total?.n ?? 0 };
}

export async function createAppVersion(db: Db, body: Omit<AppVersion, 'id' | 'createdBy' | 'createdAt' | 'withdrawnAt' | 'withdrawnBy'>, who: Principal): Promise<AppVersion> {
  try {
    const [row] = await db.insert(appVersions).values({ ...body, createdBy: who.id, createdByName: who.username }).returning();
    return toAppVersion(row!);
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('APP_VERSION_TAKEN', { build: body.build });
    throw err;
  }
}

export async function updateAppVersion(db: Db, id: number, patch: Partial<Pick<AppVersion, 'changelogZh' | 'changelogEn' | 'forceUpdate' | 'minSupportedVersion' | 'downloadUrl'>>) {
  const [before] = await db.select().from(appVersions).where(eq(appVersions.id, id)).limit(1);
  if (!before) throw new AppError('APP_VERSION_NOT_FOUND');
  const [after] = await db.update(appVersions).set(patch).where(eq(appVersions.id, id)).returning();
  return { before: toAppVersion(before), after: toAppVersion(after!) };
}

/** Withdraws a release once; the app is offered the newest release still standing. */
export async function withdrawAppVersion(db: Db, id: number, who: Principal): Promise<AppVersion> {
  const [after] = await db
    .update(appVersions)
    .set({ withdrawnAt: new Date(), withdrawnByName: who.username })
    .where(and(eq(appVersions.id, id), isNull(appVersions.withdrawnAt)))
    .returning();
  if (after) return toAppVersion(after);
  const [exists] = await db.select({ id: appVersions.id }).from(appVersions).where(eq(appVersions.id, id)).limit(1);
  throw new AppError(exists ? 'APP_VERSION_WITHDRAWN' : 'APP_VERSION_NOT_FOUND');
}

/**
 * What the app should do: the newest release of its platform (highest build), whether it is newer
 * than the running version, and whether the update is forced — the running version is below the
 * minimum supported one, or some release newer than it is marked force-update.
 */
export async function latestFor(db: Db, platform: AppPlatform, running: string, locale: Locale): Promise<AppLatest> {
  const rows = await db
    .select()
    .from(appVersions)
    .where(and(eq(appVersions.platform, platform), isNull(appVersions.withdrawnAt)))
    .orderBy(desc(appVersions.build))
    .limit(200);
  const latest = rows[0];
  if (!latest) return { latest: null, updateAvailable: false, forceUpdate: false, changelog: '' };
  const newer = rows.filter((r) => compareVersions(r.version, running) > 0);
  const belowMinimum = latest.minSupportedVersion !== '' && compareVersions(running, latest.minSupportedVersion) < 0;
  const { createdBy: _by, withdrawnAt: _at, withdrawnBy: _withdrawnBy, ...shown } = toAppVersion(latest);
  return {
    latest: shown,
    updateAvailable: compareVersions(latest.version, running) > 0,
    forceUpdate: belowMinimum || newer.some((r) => r.forceUpdate),
    changelog: locale === 'en-US' ? latest.changelogEn || latest.changelogZh : latest.changelogZh || latest.changelogEn,
  };
}
