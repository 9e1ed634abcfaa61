import { sql } from 'drizzle-orm';
import { canAccess, type NotifyItem, type NotifyKey, type Resource } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import type { Principal } from '../http/auth.ts';

/**
 * One thing that may need a staff member's attention. A feature that owns such rows contributes a
 * source; the composition root (app.ts) hands the list to the notify endpoint. A source is shown
 * only to roles that may open its page (`resource`), so the answer is role-aware by construction.
 */
export interface AttentionSource {
  key: NotifyKey;
  /** Who may see it: the resource of the page the link opens. */
  resource: Resource;
  level: NotifyItem['level'];
  /** The console page that lists exactly what was counted. */
  link: string;
  count(db: Db, who: Principal): Promise<number>;
}

function countOf(result: unknown): number {
  return (result as { rows: { n: number }[] }).rows[0]?.n ?? 0;
}

/** The platform's own sources; tickets contribute theirs (tickets/attention.ts) at the composition root. */
export const coreAttentionSources: AttentionSource[] = [
  {
    key: 'unreadMessages',
    resource: 'messages',
    level: 'info',
    link: '/user/messages',
    count: async (db, who) => countOf(await db.execute(sql`select count(*)::int as n from messages where user_id = ${who.id} and status = 0`)),
  },
  {
    key: 'criticalEvents',
    resource: 'deviceEvents',
    level: 'danger',
    link: '/device/device-exception-event?status=active&severity=critical',
    count: async (db) => countOf(await db.execute(sql`select count(*)::int as n from device_events where status = 'active' and severity = 'critical'`)),
  },
  {
    // Paused (by hand or by the abort threshold), or still running with failed mowers.
    key: 'otaCampaigns',
    resource: 'firmware',
    level: 'warning',
    link: '/product/firmware?tab=campaigns',
    count: async (db) =>
      countOf(
        await db.execute(sql`
          select count(*)::int as n from ota_campaigns c
          where c.status = 'paused'
             or (c.status = 'running' and exists (select 1 from ota_jobs j where j.campaign_id = c.id and j.state = 'FAILED'))`),
      ),
  },
  {
    key: 'scheduleSyncFailed',
    resource: 'tasks',
    level: 'warning',
    link: '/task/task-list?syncState=failed',
    count: async (db) => countOf(await db.execute(sql`select count(*)::int as n from task_device_sync where state = 'failed'`)),
  },
  {
    key: 'accountRequests',
    resource: 'staff',
    level: 'info',
    link: '/system/system-user?status=pending',
    count: async (db) => countOf(await db.execute(sql`select count(*)::int as n from staff_users where status = 'pending'`)),
  },
];

/** What needs this staff member: every source their role may see that has something to show. */
export async function attentionFor(db: Db, who: Principal, sources: readonly AttentionSource[]): Promise<NotifyItem[]> {
  const visible = sources.filter((s) => canAccess(who.role, s.resource));
  const counts = await Promise.all(visible.map((s) => s.count(db, who)));
  return visible.map((s, i) => ({ key: s.key, count: counts[i] ?? 0, link: s.link, level: s.level })).filter((item) => item.count > 0);
}
