import { eventSubject, type EventPayloadOf } from '@mowerline/contract';
import { emit, type Executor } from '../events/emit.ts';

type StaffChange = EventPayloadOf<'staff.changed'>['change'];
type Extra = Pick<EventPayloadOf<'staff.changed'>, 'name' | 'reason' | 'locale' | 'ip'>;

/** `staff.changed`, written in the transaction of the change. */
export async function staffChanged(
  tx: Executor,
  account: { id: number; username: string; role: 'admin' | 'user' },
  change: StaffChange,
  actor: string | null,
  extra: Extra = {},
  at = new Date(),
): Promise<void> {
  await emit(tx, {
    type: 'staff.changed',
    subject: eventSubject.staff(account.id),
    payload: { staffId: account.id, username: account.username, change, role: account.role, actor, ...extra, at: at.toISOString() },
  });
}
