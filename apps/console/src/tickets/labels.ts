import type { TicketPriority, TicketStatus, TicketSummary } from '@mowerline/contract';
import type { Translate } from '../locale/i18n.ts';

export const statusColor: Record<TicketStatus, string> = {
  new: 'arcoblue',
  open: 'cyan',
  pending_customer: 'orange',
  resolved: 'green',
  closed: 'gray',
  spam: 'red',
};

export const priorityColor: Record<TicketPriority, string> = { low: 'gray', normal: 'blue', high: 'orange', urgent: 'red' };

/** A ticket's number as people say it: `#1234`. */
export const ticketNumber = (n: number) => `#${n}`;

/** Closed and spam tickets take no more workflow steps but reopen. */
export const isFinal = (status: TicketStatus) => status === 'closed' || status === 'spam';

/** The SLA clock a ticket runs against: the earlier of its first-response and resolution due times. */
export function slaDue(ticket: Pick<TicketSummary, 'slaFirstResponseDue' | 'slaResolutionDue'>): { at: string; kind: 'firstResponse' | 'resolution' } | null {
  const first = ticket.slaFirstResponseDue;
  const resolution = ticket.slaResolutionDue;
  if (first && (!resolution || first <= resolution)) return { at: first, kind: 'firstResponse' };
  return resolution ? { at: resolution, kind: 'resolution' } : null;
}

/** Milliseconds as the two largest units: `2d 4h`, `3h 05m`, `12m`, `40s` (or 天/小时/分/秒). */
export function countdown(t: Translate, ms: number): string {
  const s = Math.floor(Math.abs(ms) / 1000);
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d > 0) return `${t('ticket.unit.d', { n: d })} ${t('ticket.unit.h', { n: h })}`;
  if (h > 0) return `${t('ticket.unit.h', { n: h })} ${t('ticket.unit.m', { n: String(m).padStart(2, '0') })}`;
  if (m > 0) return t('ticket.unit.m', { n: m });
  return t('ticket.unit.s', { n: s % 60 });
}

/** A file size in B / KB / MB. */
export function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** `ticket.history.status` values (`pending_customer`) as words; anything else as recorded. */
export function historyValue(t: Translate, field: string, value: string): string {
  if (!value) return '-';
  const key = field === 'status' ? `ticket.status.${value}` : field === 'priority' ? `ticket.priority.${value}` : '';
  if (!key) return value;
  const text = t(key);
  return text === key ? value : text;
}
