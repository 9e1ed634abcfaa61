import { Tag, Typography } from '@arco-design/web-react';
import { IconLock, IconRobot, IconUser, IconCustomerService } from '@arco-design/web-react/icon';
import type { TicketDetail, TicketEntry } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { useFormatTime } from '../locale/format.ts';
import { ticketNumber } from './labels.ts';
import { TicketAttachments } from './TicketAttachments.tsx';

/** Who wrote an entry, as the thread shows it. */
function author(t: ReturnType<typeof useT>, entry: TicketEntry, customer: string): string {
  if (entry.kind === 'system') return t('ticket.entry.system');
  if (entry.kind === 'customer') return entry.author?.name || customer;
  return entry.author?.name ?? t('ticket.entry.agent');
}

function Entry({ ticketId, entry, customer }: { ticketId: number; entry: TicketEntry; customer: string }) {
  const t = useT();
  const { dateTime } = useFormatTime();
  if (entry.kind === 'system') {
    return (
      <li className="ticket-entry ticket-entry-system" data-entry-kind="system">
        <IconRobot /> <span className="ticket-entry-body">{entry.body}</span> · <time dateTime={entry.createdAt}>{dateTime(entry.createdAt)}</time>
      </li>
    );
  }
  const kind = entry.internal ? 'internal' : entry.kind;
  return (
    <li className={`ticket-entry ticket-entry-${kind}`} data-entry-kind={kind} data-entry-id={entry.id}>
      <div className="ticket-entry-head">
        {entry.internal ? <IconLock aria-hidden /> : entry.kind === 'agent' ? <IconCustomerService aria-hidden /> : <IconUser aria-hidden />}
        <Typography.Text bold>{author(t, entry, customer)}</Typography.Text>
        {entry.internal ? (
          <Tag size="small" color="gold" className="ticket-internal-label">
            {t('ticket.entry.internal')}
          </Tag>
        ) : (
          <Tag size="small" color={entry.kind === 'agent' ? 'arcoblue' : 'gray'}>
            {t(entry.kind === 'agent' ? 'ticket.entry.publicReply' : 'ticket.entry.customer')}
          </Tag>
        )}
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t(`ticket.channel.${entry.channel}`)} · <time dateTime={entry.createdAt}>{dateTime(entry.createdAt)}</time>
          {entry.mergedFromNumber ? ` · ${t('ticket.entry.mergedFrom', { number: ticketNumber(entry.mergedFromNumber) })}` : ''}
        </Typography.Text>
      </div>
      {/* Plain text: whatever HTML a customer typed shows as typed, never as markup. */}
      <div className="ticket-entry-body">{entry.body}</div>
      <TicketAttachments ticketId={ticketId} files={entry.attachments} />
    </li>
  );
}

/** The thread: the customer's first message (title, description, files), then every entry oldest first. */
export function TicketConversation({ ticket }: { ticket: TicketDetail }) {
  const t = useT();
  const { dateTime } = useFormatTime();
  const customer = ticket.user.name || ticket.user.email;
  return (
    <ol className="ticket-thread" data-testid="ticket-thread" aria-label={t('ticket.section.conversation')}>
      <li className="ticket-entry ticket-entry-customer" data-entry-kind="description">
        <div className="ticket-entry-head">
          <IconUser aria-hidden />
          <Typography.Text bold>{customer}</Typography.Text>
          <Tag size="small" color="gray">
            {t('ticket.entry.customer')}
          </Tag>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('ticket.channel.app')} · <time dateTime={ticket.createdAt}>{dateTime(ticket.createdAt)}</time>
          </Typography.Text>
        </div>
        <div className="ticket-entry-body" data-testid="ticket-description">
          {ticket.description}
        </div>
        <TicketAttachments ticketId={ticket.id} files={ticket.attachments} />
      </li>
      {ticket.entries.map((entry) => (
        <Entry key={entry.id} ticketId={ticket.id} entry={entry} customer={customer} />
      ))}
    </ol>
  );
}
