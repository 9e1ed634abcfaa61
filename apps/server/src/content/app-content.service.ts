import { sql } from 'drizzle-orm';
import type { AppContentDetail, ContentType, Page } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { AppError } from '../http/envelope.ts';
import type { ContentUrlSigner } from './content-files.ts';

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

interface AppRow {
  id: number;
  type: ContentType;
  title_zh: string;
  title_en: string;
  body_zh: string;
  body_en: string;
  cover_file_id: number | null;
  media_file_id: number | null;
  media_url: string | null;
  published_at: string | Date;
}

/**
 * Published items the user may see: those for every owner, and those for a model of a mower the
 * user owns or shares. The language is the one the user chose in the app.
 */
const visibleTo = (userId: number) => sql`
  c.state = 'published' and (
    c.models = '{}'::text[] or c.models && array(
      select m.code from app_device_links l join devices d on d.sn = l.sn join product_models m on m.id = d.model_id where l.user_id = ${userId}))`;

async function localeOf(db: Db, userId: number): Promise<'zh' | 'en'> {
  const [row] = rowsOf<{ locale: string }>(await db.execute(sql`select locale from app_users where id = ${userId}`));
  return row?.locale === 'zh-CN' ? 'zh' : 'en';
}

function summary(row: AppRow, lang: 'zh' | 'en', urls: ContentUrlSigner, base: string) {
  return {
    id: row.id,
    type: row.type,
    title: lang === 'zh' ? row.title_zh : row.title_en,
    coverUrl: row.cover_file_id ? urls.url(row.cover_file_id, base) : null,
    publishedAt: new Date(row.published_at).toISOString(),
  };
}

export async function listAppContent(
  db: Db,
  urls: ContentUrlSigner,
  base: string,
  userId: number,
  q: { type?: ContentType; page: number; pageSize: number },
): Promise<Page<ReturnType<typeof summary>>> {
  const lang = await localeOf(db, userId);
  const typeFilter = q.type ? sql`and c.type = ${q.type}` : sql``;
  const rows = rowsOf<AppRow>(
    await db.execute(sql`
      select c.* from content_items c where ${visibleTo(userId)} ${typeFilter}
      order by c.published_at desc, c.id desc limit ${q.pageSize} offset ${(q.page - 1) * q.pageSize}`),
  );
  const [total] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from content_items c where ${visibleTo(userId)} ${typeFilter}`));
  return { list: rows.map((r) => summary(r, lang, urls, base)), total: total?.n ?? 0 };
}

/**
 * Counts an open: the view's unique key (item, user, UTC day) turns a repeat into nothing, and
 * only a first open of the day adds to the daily roll-up, in the same statement.
 */
export async function recordOpen(db: Db, contentId: number, userId: number, at: Date = new Date()): Promise<boolean> {
  const rows = rowsOf<{ content_id: number }>(
    await db.execute(sql`
      with v as (
        insert into content_views (content_id, user_id, day, at)
        values (${contentId}, ${userId}, (${at.toISOString()}::timestamptz at time zone 'UTC')::date, ${at.toISOString()}::timestamptz)
        on conflict (content_id, user_id, day) do nothing
        returning content_id, day)
      insert into content_daily (content_id, day, opens) select content_id, day, 1 from v
      on conflict (content_id, day) do update set opens = content_daily.opens + excluded.opens
      returning content_id`),
  );
  return rows.length > 0;
}

export async function openAppContent(db: Db, urls: ContentUrlSigner, base: string, userId: number, id: number): Promise<AppContentDetail> {
  const lang = await localeOf(db, userId);
  const [row] = rowsOf<AppRow>(await db.execute(sql`select c.* from content_items c where c.id = ${id} and ${visibleTo(userId)}`));
  if (!row) throw new AppError('CONTENT_NOT_FOUND');
  await recordOpen(db, id, userId);
  return {
    ...summary(row, lang, urls, base),
    body: lang === 'zh' ? row.body_zh : row.body_en,
    mediaUrl: row.media_file_id ? urls.url(row.media_file_id, base) : row.media_url,
  };
}
