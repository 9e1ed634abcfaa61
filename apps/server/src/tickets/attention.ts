import { and, eq, isNull, sql } from 'drizzle-orm';
import type { AttentionSource } from '../dashboard/attention.ts';
import { breachingNow } from './sla.ts';
import { tickets } from './tickets.sql.ts';

const ACTIVE = sql`${tickets.status} in ('new', 'open', 'pending_customer')`;

/**
 * What tickets put on the workplace's attention list. Each count is exactly what its link lists:
 * the `new` status, the `unassigned` view and the `breaching` view of `/ticket/list`.
 */
export const ticketAttentionSources: AttentionSource[] = [
  {
    key: 'newTickets',
    resource: 'ticket',
    level: 'info',
    link: '/ticket/list?status=new',
    count: async (db) => (await db.$count(tickets, eq(tickets.status, 'new'))),
  },
  {
    key: 'unassignedTickets',
    resource: 'ticket',
    level: 'warning',
    link: '/ticket/list?view=unassigned',
    count: async (db) => db.$count(tickets, and(isNull(tickets.assigneeId), ACTIVE)),
  },
  {
    key: 'slaBreachedTickets',
    resource: 'ticket',
    level: 'danger',
    link: '/ticket/list?view=breaching',
    count: async (db) => db.$count(tickets, breachingNow()),
  },
];
