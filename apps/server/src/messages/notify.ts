import { and, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { MessageType } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { staffUsers } from '../staff/staff.sql.ts';
import { messages } from './messages.sql.ts';
import type { MessageKind } from './render.ts';

export interface Notifier {
  /** One message to one staff member. */
  toUser(userId: number, type: MessageType, kind: MessageKind, params?: Record<string, string>): Promise<void>;
  /** The same message to every active admin (but `except`, e.g. the new admin the message is about). */
  toAdmins(type: MessageType, kind: MessageKind, params?: Record<string, string>, except?: number): Promise<void>;
  /**
   * Like `toAdmins`, but an admin who still has an unread message of this kind gets no second one:
   * that message takes the newest params and counts the folded ones in `more`. Answers the ids
   * of the admins who got a new message (e.g. to mail only them).
   */
  foldToAdmins(type: MessageType, kind: MessageKind, params?: Record<string, string>): Promise<number[]>;
  /** `foldToAdmins` for every active staff member of any role (e.g. new tickets: every agent). */
  foldToStaff(type: MessageType, kind: MessageKind, params?: Record<string, string>): Promise<number[]>;
}

const UNREAD = 0;

/** Messages the server produces for real events; the message box reads them. */
export function createNotifier(db: Db): Notifier {
  /** One message per matching staff member; an unread one of the same kind takes the new params and counts `more`. */
  async function fold(who: SQL | undefined, type: MessageType, kind: MessageKind, params: Record<string, string>): Promise<number[]> {
    const staff = await db.select({ id: staffUsers.id }).from(staffUsers).where(who);
    if (staff.length === 0) return [];
    const ids = staff.map((a) => a.id);
    // One statement folds into every unread one; `more` is a string param like all params.
    const folded = await db
      .update(messages)
      .set({
        params: sql`${JSON.stringify(params)}::jsonb || jsonb_build_object('more', ((coalesce(${messages.params}->>'more', '0'))::int + 1)::text)`,
        createdAt: new Date(),
      })
      .where(and(inArray(messages.userId, ids), eq(messages.kind, kind), eq(messages.type, type), eq(messages.status, UNREAD)))
      .returning({ userId: messages.userId });
    const done = new Set(folded.map((m) => m.userId));
    const fresh = ids.filter((id) => !done.has(id));
    if (fresh.length > 0) await db.insert(messages).values(fresh.map((userId) => ({ userId, type, kind, params })));
    return fresh;
  }

  return {
    async toUser(userId, type, kind, params = {}) {
      await db.insert(messages).values({ userId, type, kind, params });
    },
    async toAdmins(type, kind, params = {}, except) {
      const admins = await db
        .select({ id: staffUsers.id })
        .from(staffUsers)
        .where(and(eq(staffUsers.role, 'admin'), eq(staffUsers.status, 'active'), except === undefined ? undefined : ne(staffUsers.id, except)));
      if (admins.length === 0) return;
      await db.insert(messages).values(admins.map((a) => ({ userId: a.id, type, kind, params })));
    },
    async foldToAdmins(type, kind, params = {}) {
      return fold(and(eq(staffUsers.role, 'admin'), eq(staffUsers.status, 'active')), type, kind, params);
    },
    async foldToStaff(type, kind, params = {}) {
      return fold(eq(staffUsers.status, 'active'), type, kind, params);
    },
  };
}
