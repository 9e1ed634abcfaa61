import { and, eq, gt, sql } from 'drizzle-orm';
import { defaultNotifyPrefs, messageKinds, type EventSeverity, type NotifyPrefs } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { staffUsers } from '../staff/staff.sql.ts';
import { messages, notifyPrefs } from './messages.sql.ts';

/** A new exception event as the ingest writes it. */
export interface DeviceEventNote {
  sn: string;
  code: string;
  severity: string;
  message: string;
  lastAt: Date;
}

/** One unread message per member and severity gathers the events of this window, however many. */
const FOLD_WINDOW = sql`interval '60 seconds'`;
const UNREAD = 0;

export async function getNotifyPrefs(db: Db, userId: number): Promise<NotifyPrefs> {
  const [row] = await db.select().from(notifyPrefs).where(eq(notifyPrefs.userId, userId)).limit(1);
  return row ? { severities: row.severities, codes: row.codes } : defaultNotifyPrefs;
}

export async function saveNotifyPrefs(db: Db, userId: number, prefs: NotifyPrefs): Promise<NotifyPrefs> {
  const value = { severities: prefs.severities, codes: [...new Set(prefs.codes)], updatedAt: new Date() };
  await db.insert(notifyPrefs).values({ userId, ...value }).onConflictDoUpdate({ target: notifyPrefs.userId, set: value });
  return { severities: value.severities, codes: value.codes };
}

const wants = (prefs: NotifyPrefs, e: DeviceEventNote) => prefs.severities.includes(e.severity as EventSeverity) && (prefs.codes.length === 0 || prefs.codes.includes(e.code));

/**
 * Tells every active staff member about the new events they chose (critical and major unless they
 * chose otherwise). A burst does not become a flood: per member and severity, the events of a
 * minute fold into one unread message ("12 new major events") that keeps the latest event's
 * details; a new message starts once that one is read or the minute has passed.
 */
export async function notifyDeviceEvents(db: Db, events: DeviceEventNote[]): Promise<void> {
  if (events.length === 0) return;
  const members = await db
    .select({ id: staffUsers.id, severities: notifyPrefs.severities, codes: notifyPrefs.codes })
    .from(staffUsers)
    .leftJoin(notifyPrefs, eq(notifyPrefs.userId, staffUsers.id))
    .where(eq(staffUsers.status, 'active'));
  for (const member of members) {
    const prefs = member.severities && member.codes ? { severities: member.severities, codes: member.codes } : defaultNotifyPrefs;
    const bySeverity = new Map<string, DeviceEventNote[]>();
    for (const e of events) if (wants(prefs, e)) bySeverity.set(e.severity, [...(bySeverity.get(e.severity) ?? []), e]);
    for (const [severity, list] of bySeverity) {
      const latest = list.reduce((a, b) => (b.lastAt > a.lastAt ? b : a));
      const details = { sn: latest.sn, code: latest.code, message: latest.message, at: latest.lastAt.toISOString() };
      const folded = await db
        .update(messages)
        .set({ params: sql`${messages.params} || ${JSON.stringify(details)}::jsonb || jsonb_build_object('count', ((${messages.params}->>'count')::int + ${list.length})::text)` })
        .where(
          and(
            eq(messages.userId, member.id),
            eq(messages.kind, messageKinds.deviceEvents),
            eq(messages.status, UNREAD),
            sql`${messages.params}->>'severity' = ${severity}`,
            gt(messages.createdAt, sql`now() - ${FOLD_WINDOW}`),
          ),
        )
        .returning({ id: messages.id });
      if (folded.length === 0) {
        await db.insert(messages).values({ userId: member.id, type: 'notice', kind: messageKinds.deviceEvents, params: { severity, count: String(list.length), ...details } });
      }
    }
  }
}
