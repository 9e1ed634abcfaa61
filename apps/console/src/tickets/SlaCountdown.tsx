import { Tag, Tooltip } from '@arco-design/web-react';
import { IconClockCircle, IconPause } from '@arco-design/web-react/icon';
import type { TicketSummary } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { useFormatTime } from '../locale/format.ts';
import { countdown, slaDue } from './labels.ts';
import { useNow } from './use-now.ts';

type SlaFields = Pick<TicketSummary, 'slaFirstResponseDue' | 'slaResolutionDue' | 'slaPaused' | 'slaBreached'>;

/**
 * The SLA due time as a live countdown: red once breached, grey "paused" while the ticket waits
 * for the customer (the clock stands still then), '-' when no target runs (answered and resolved).
 */
export function SlaCountdown({ ticket }: { ticket: SlaFields }) {
  const t = useT();
  const { dateTime } = useFormatTime();
  const now = useNow();
  const due = slaDue(ticket);
  if (ticket.slaPaused) {
    return (
      <Tag icon={<IconPause />} color="gray" data-sla="paused">
        {t('ticket.sla.paused')}
      </Tag>
    );
  }
  if (!due) return <span data-sla="none">-</span>;
  const left = new Date(due.at).getTime() - now;
  const breached = ticket.slaBreached || left < 0;
  const text = breached ? t('ticket.sla.overdue', { time: countdown(t, left) }) : t('ticket.sla.left', { time: countdown(t, left) });
  return (
    <Tooltip content={`${t(`ticket.sla.${due.kind}`)}: ${dateTime(due.at)}`}>
      <span className={breached ? 'ticket-sla ticket-sla-breached' : 'ticket-sla'} data-sla={breached ? 'breached' : 'running'} tabIndex={0}>
        <IconClockCircle /> {text}
      </span>
    </Tooltip>
  );
}
