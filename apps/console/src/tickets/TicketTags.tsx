import { Tag } from '@arco-design/web-react';
import type { TicketPriority, TicketStatus } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { priorityColor, statusColor } from './labels.ts';

export function TicketStatusTag({ status }: { status: TicketStatus }) {
  const t = useT();
  return (
    <Tag color={statusColor[status]} data-status={status}>
      {t(`ticket.status.${status}`)}
    </Tag>
  );
}

export function TicketPriorityTag({ priority }: { priority: TicketPriority }) {
  const t = useT();
  return (
    <Tag color={priorityColor[priority]} data-priority={priority} bordered>
      {t(`ticket.priority.${priority}`)}
    </Tag>
  );
}
