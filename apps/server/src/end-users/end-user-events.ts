import { and, eq } from 'drizzle-orm';
import { eventSubject } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { emit, type Executor } from '../events/emit.ts';
import { appUsers, type AppUserRow } from './end-users.sql.ts';

/**
 * An unverified account becomes active (its owner confirmed the address, or support did), with its
 * `end_user.registered` event in the same transaction. Answers the row, or undefined when it was
 * no longer unverified.
 */
export async function activateRegistration(db: Db, userId: number): Promise<AppUserRow | undefined> {
  return db.transaction(async (tx) => {
    const at = new Date();
    const [row] = await tx
      .update(appUsers)
      .set({ status: 'active', updatedAt: at })
      .where(and(eq(appUsers.id, userId), eq(appUsers.status, 'unverified')))
      .returning();
    if (row) await emit(tx, { type: 'end_user.registered', subject: eventSubject.endUser(userId), payload: { userId, at: at.toISOString() } });
    return row;
  });
}

/** `device.bound` / `device.unbound`, in the transaction of the link's change. */
export async function ownerChanged(tx: Executor, type: 'device.bound' | 'device.unbound', userId: number, sns: readonly string[]): Promise<void> {
  const at = new Date().toISOString();
  await emit(tx, ...sns.map((sn) => ({ type, subject: eventSubject.device(sn), payload: { sn, userId, at } })));
}
