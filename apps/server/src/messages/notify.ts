import { and, eq, ne } from 'drizzle-orm';
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
}

/** Messages the server produces for real events; the message box reads them. */
export function createNotifier(db: Db): Notifier {
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
  };
}
