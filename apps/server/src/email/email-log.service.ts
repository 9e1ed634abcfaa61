import { and, count, desc, eq, gte, ilike, lte, type SQL } from 'drizzle-orm';
import type { EmailLog, EmailLogQuery, Page } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { containsPattern, pageOffset } from '../db/helpers.ts';
import { emailLogs } from './email.sql.ts';

/** GET /api/admin/system/email-log: every mail the server tried to send, newest first. */
export async function listEmailLogs(db: Db, query: EmailLogQuery): Promise<Page<EmailLog>> {
  const filters: SQL[] = [];
  if (query.recipient) filters.push(ilike(emailLogs.to, containsPattern(query.recipient)));
  if (query.template) filters.push(eq(emailLogs.template, query.template));
  if (query.status) filters.push(eq(emailLogs.status, query.status));
  if (query.from) filters.push(gte(emailLogs.createdAt, new Date(query.from)));
  if (query.to) filters.push(lte(emailLogs.createdAt, new Date(query.to)));
  const where = and(...filters);
  const [rows, [total]] = await Promise.all([
    db.select().from(emailLogs).where(where).orderBy(desc(emailLogs.createdAt), desc(emailLogs.id)).limit(query.pageSize).offset(pageOffset(query)),
    db.select({ n: count() }).from(emailLogs).where(where),
  ]);
  return {
    list: rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString(), sentAt: row.sentAt ? row.sentAt.toISOString() : null })),
    total: total?.n ?? 0,
  };
}
