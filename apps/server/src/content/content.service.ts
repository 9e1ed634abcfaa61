import { and, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { ContentItem, ContentState, ContentWriteBody, Page } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { AppError } from '../http/envelope.ts';
import { productModels } from '../product/product.sql.ts';
import type { ContentUrlSigner } from './content-files.ts';
import { contentDaily, contentFiles, contentItems, type ContentItemRow } from './content.sql.ts';

export interface Author {
  id: number | null;
  name: string;
}

function toItem(row: ContentItemRow, opens: number, urls: ContentUrlSigner): ContentItem {
  return {
    id: row.id,
    type: row.type,
    state: row.state,
    title: { 'zh-CN': row.titleZh, 'en-US': row.titleEn },
    body: { 'zh-CN': row.bodyZh, 'en-US': row.bodyEn },
    coverFileId: row.coverFileId,
    coverUrl: row.coverFileId ? urls.url(row.coverFileId) : null,
    mediaFileId: row.mediaFileId,
    mediaUrl: row.mediaUrl,
    mediaHref: row.mediaFileId ? urls.url(row.mediaFileId) : row.mediaUrl,
    models: row.models,
    opens,
    createdByName: row.createdByName,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    publishedAt: row.publishedAt?.toISOString() ?? null,
  };
}

/** Opens of each item since it was published (the roll-up, never the raw views). */
async function opensOf(db: Db, ids: number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: contentDaily.contentId, opens: sql<number>`sum(${contentDaily.opens})::int` })
    .from(contentDaily)
    .where(inArray(contentDaily.contentId, ids))
    .groupBy(contentDaily.contentId);
  return new Map(rows.map((r) => [r.id, r.opens]));
}

export async function listContent(
  db: Db,
  urls: ContentUrlSigner,
  q: { type?: ContentItem['type']; state?: ContentState; keyword?: string; page: number; pageSize: number },
): Promise<Page<ContentItem>> {
  const filters: SQL[] = [];
  if (q.type) filters.push(eq(contentItems.type, q.type));
  if (q.state) filters.push(eq(contentItems.state, q.state));
  if (q.keyword) {
    const like = `%${q.keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    filters.push(or(ilike(contentItems.titleZh, like), ilike(contentItems.titleEn, like))!);
  }
  const where = filters.length ? and(...filters) : undefined;
  const rows = await db
    .select()
    .from(contentItems)
    .where(where)
    .orderBy(desc(contentItems.id))
    .limit(q.pageSize)
    .offset((q.page - 1) * q.pageSize);
  const [total] = await db.select({ n: count() }).from(contentItems).where(where);
  const opens = await opensOf(db, rows.map((r) => r.id));
  return { list: rows.map((r) => toItem(r, opens.get(r.id) ?? 0, urls)), total: total?.n ?? 0 };
}

async function rowOf(db: Db, id: number): Promise<ContentItemRow> {
  const [row] = await db.select().from(contentItems).where(eq(contentItems.id, id));
  if (!row) throw new AppError('CONTENT_NOT_FOUND');
  return row;
}

export async function getContent(db: Db, urls: ContentUrlSigner, id: number): Promise<ContentItem> {
  const row = await rowOf(db, id);
  return toItem(row, (await opensOf(db, [id])).get(id) ?? 0, urls);
}

/** Files exist and fit their place; media fits the type; every model code is a known model. */
async function checkWrite(db: Db, body: ContentWriteBody): Promise<void> {
  const ids = [body.coverFileId, body.mediaFileId].filter((v): v is number => v !== null);
  const files = ids.length ? await db.select({ id: contentFiles.id, kind: contentFiles.kind }).from(contentFiles).where(inArray(contentFiles.id, ids)) : [];
  const kindOf = new Map(files.map((f) => [f.id, f.kind]));
  for (const id of ids) if (!kindOf.has(id)) throw new AppError('CONTENT_FILE_NOT_FOUND');
  if (body.coverFileId !== null && kindOf.get(body.coverFileId) !== 'image') throw new AppError('CONTENT_MEDIA');
  const mediaKind = body.mediaFileId !== null ? kindOf.get(body.mediaFileId) : undefined;
  const fits =
    body.type === 'text'
      ? body.mediaFileId === null && body.mediaUrl === null
      : body.type === 'image'
        ? body.mediaUrl === null && (body.mediaFileId === null || mediaKind === 'image')
        : (body.mediaFileId === null || mediaKind === 'video') && !(body.mediaFileId !== null && body.mediaUrl !== null);
  if (!fits) throw new AppError('CONTENT_MEDIA');
  const models = [...new Set(body.models)];
  if (models.length) {
    const known = await db.select({ code: productModels.code }).from(productModels).where(inArray(productModels.code, models));
    if (known.length !== models.length) throw new AppError('MODEL_NOT_FOUND');
  }
}

/** A published item must be complete: an image post has its image, a video its file or URL. */
function checkPublishable(row: Pick<ContentItemRow, 'type' | 'mediaFileId' | 'mediaUrl'>): void {
  if (row.type === 'image' && row.mediaFileId === null) throw new AppError('CONTENT_MEDIA');
  if (row.type === 'video' && row.mediaFileId === null && row.mediaUrl === null) throw new AppError('CONTENT_MEDIA');
}

const columns = (body: ContentWriteBody) => ({
  type: body.type,
  titleZh: body.title['zh-CN'],
  titleEn: body.title['en-US'],
  bodyZh: body.body['zh-CN'],
  bodyEn: body.body['en-US'],
  coverFileId: body.coverFileId,
  mediaFileId: body.mediaFileId,
  mediaUrl: body.mediaUrl,
  models: [...new Set(body.models)],
});

export async function createContent(db: Db, urls: ContentUrlSigner, body: ContentWriteBody, who: Author): Promise<ContentItem> {
  await checkWrite(db, body);
  const [row] = await db
    .insert(contentItems)
    .values({ ...columns(body), createdBy: who.id, createdByName: who.name })
    .returning();
  return toItem(row!, 0, urls);
}

export async function updateContent(db: Db, urls: ContentUrlSigner, id: number, body: ContentWriteBody): Promise<{ before: ContentItemRow; after: ContentItem }> {
  const before = await rowOf(db, id);
  await checkWrite(db, body);
  if (before.state === 'published') checkPublishable(body);
  const [row] = await db
    .update(contentItems)
    .set({ ...columns(body), updatedAt: new Date() })
    .where(eq(contentItems.id, id))
    .returning();
  return { before, after: toItem(row!, (await opensOf(db, [id])).get(id) ?? 0, urls) };
}

/** Any state to any other; the first publication sets `publishedAt` (the app lists newest first). */
export async function setContentState(db: Db, urls: ContentUrlSigner, id: number, state: ContentState): Promise<{ before: ContentItemRow; after: ContentItem }> {
  const before = await rowOf(db, id);
  if (state === 'published') checkPublishable(before);
  const [row] = await db
    .update(contentItems)
    .set({ state, updatedAt: new Date(), publishedAt: state === 'published' ? (before.publishedAt ?? new Date()) : before.publishedAt })
    .where(eq(contentItems.id, id))
    .returning();
  return { before, after: toItem(row!, (await opensOf(db, [id])).get(id) ?? 0, urls) };
}
