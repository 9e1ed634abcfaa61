import { Empty, Rate, Timeline, Typography } from '@arco-design/web-react';
import { Link } from 'react-router';
import type { TicketDetail } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { useFormatTime } from '../locale/format.ts';
import { historyValue, ticketNumber } from './labels.ts';
import { detailPath } from './TicketTable.tsx';
import { TicketStatusTag } from './TicketTags.tsx';

/** The customer's rating of the resolution, if they gave one. */
export function TicketRating({ rating }: { rating: TicketDetail['rating'] }) {
  const t = useT();
  const { dateTime } = useFormatTime();
  if (!rating) return <Typography.Text type="secondary">{t('ticket.rating.none')}</Typography.Text>;
  return (
    <div data-testid="ticket-rating" data-score={rating.score}>
      <Rate readonly value={rating.score} aria-label={t('ticket.rating.score', { score: rating.score })} />
      {rating.comment ? <Typography.Paragraph className="ticket-entry-body">{rating.comment}</Typography.Paragraph> : null}
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {dateTime(rating.at)}
      </Typography.Text>
    </div>
  );
}

/** The same user's other tickets, newest first. */
export function OtherTickets({ tickets }: { tickets: TicketDetail['otherTickets'] }) {
  const t = useT();
  const { dateTime } = useFormatTime();
  if (tickets.length === 0) return <Empty description={t('ticket.others.none')} />;
  return (
    <ul className="ticket-others" data-testid="ticket-others">
      {tickets.map((other) => (
        <li key={other.id}>
          <Link to={detailPath(other.id)} className="ticket-mono">
            {ticketNumber(other.number)}
          </Link>{' '}
          <Typography.Text ellipsis style={{ maxWidth: 200, margin: 0, display: 'inline-block', verticalAlign: 'bottom' }} title={other.title}>
            {other.title}
          </Typography.Text>
          <div className="ticket-others-meta">
            <TicketStatusTag status={other.status} />
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {dateTime(other.createdAt)}
            </Typography.Text>
          </div>
        </li>
      ))}
    </ul>
  );
}

/** Every change of status, priority, assignee, tags, merge, rating and reopen: who, when, from what to what. */
export function TicketHistory({ history }: { history: TicketDetail['history'] }) {
  const t = useT();
  const { dateTime } = useFormatTime();
  if (history.length === 0) return <Empty description={t('ticket.history.none')} />;
  return (
    <div data-testid="ticket-history">
    <Timeline>
      {history.map((h) => (
        <Timeline.Item key={h.id} label={dateTime(h.at)} data-field={h.field}>
          {t('ticket.history.line', {
            actor: h.actor?.name ?? (h.actorName || t('ticket.entry.system')),
            field: t(`ticket.history.field.${h.field}`),
            from: historyValue(t, h.field, h.from),
            to: historyValue(t, h.field, h.to),
          })}
        </Timeline.Item>
      ))}
    </Timeline>
    </div>
  );
}
