import { and, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { Locale, Message, MessageListQuery, MessageType, Page, UnreadCount } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { pageOffset } from '../db/helpers.ts';
import { messages } from './messages.sql.ts';
import { renderMessage } from './render.ts';

const UNREAD = 0;
const READ = 1;

/** The caller's own messages, newest first, written in the caller's language. */
export async function listMessages(db: Db, userId: number, query: MessageListQuery, locale: Locale): Promise<Page<Message>> {
  const filters: SQL[] = [eq(messages.userId, userId)];
  if (query.type) filters.push(eq(messages.type, query.type));
  if (query.status !== undefined) filters.push(eq(messages.status, query.status));
  const where = and(...filters);
  const [rows, [total]] = await Promise.all([
    db.select().from(messages).where(where).orderBy(desc(messages.createdAt), desc(messages.id)).limit(query.pageSize).offset(pageOffset(query)),
    db.select({ n: count() }).from(messages).where(where),
  ]);
  return {
    list: rows.map((row) => ({
      id: row.id,
      type: row.type,
      ...renderMessage(row.kind, row.params, locale, query.timeZone),
      avatar: '',
      time: row.createdAt.toISOString(),
      messageType: row.kind,
      status: row.status === READ ? READ : UNREAD,
    })),
    total: total?.n ?? 0,
  };
}

/** Marks the given ids read; ids of other people's messages are ignored, never touched. */
export async function markRead(db: Db, userId: number, ids: number[]): Promise<void> {
  await db
    .update(messages)
    .set({ status: READ })
    .where(and(eq(messages.userId, userId), inArray(messages.id, ids), eq(messages.status, UNREAD)));
}

export async function markAllRead(db: Db, userId: number, type?: MessageType): Promise<void> {
  const filters: SQL[] = [eq(messages.userId, userId), eq(messages.status, UNREAD)];
  if (type) filters.push(eq(messages.type, type));
  await db.update(messages).set({ status: READ }).where(and(...filters));
}

/** Unread messages per tab of the message box; served by the (user, type, status) index. */
export async function unreadCount(db: Db, userId: number): Promise<UnreadCount> {
  const rows = await db
    .select({ type: messages.type, n: count() })
    .from(messages)
    .where(and(eq(messages.userId, userId), eq(messages.status, UNREAD)))
    .groupBy(messages.type);
  const of = (type: MessageType) => rows.find((r) => r.type === type)?.n ?? 0;
  return { message: of('message'), notice: of('notice'), todo: of('todo') };
}
