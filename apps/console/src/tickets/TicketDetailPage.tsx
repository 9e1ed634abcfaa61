import { useEffect } from 'react';
import { Alert, Button, Card, Descriptions, Empty, Grid, Space, Spin, Tag, Typography } from '@arco-design/web-react';
import { IconArrowLeft } from '@arco-design/web-react/icon';
import { Link, useLocation } from 'react-router';
import type { TicketDetail } from '@mowerline/contract';
import { useTabBar } from '../layout/tab-bar.store.ts';
import { useUrlFilters } from '../router/use-url-filters.ts';
import { useT } from '../locale/i18n.ts';
import { useFormatTime } from '../locale/format.ts';
import { ApiError } from '../api/request.ts';
import { ticketNumber } from './labels.ts';
import { DeviceSnapshot } from './DeviceSnapshot.tsx';
import { SlaCountdown } from './SlaCountdown.tsx';
import { useTicket } from './tickets.api.ts';
import { TicketComposer } from './TicketComposer.tsx';
import { TicketConversation } from './TicketConversation.tsx';
import { TicketProperties } from './TicketProperties.tsx';
import { OtherTickets, TicketHistory, TicketRating } from './TicketSidePanels.tsx';
import { detailPath } from './TicketTable.tsx';
import { TicketPriorityTag, TicketStatusTag } from './TicketTags.tsx';
import { TicketWorkflow } from './TicketWorkflow.tsx';
import '../devices/devices.css';
import './tickets.css';

const ROUTE = 'ticket-detail';

const idFromUrl = (params: URLSearchParams) => {
  const id = Number(params.get('id'));
  return Number.isInteger(id) && id > 0 && id <= 2_147_483_647 ? id : undefined;
};

/** The tab (and the window) names the ticket: `#1234 Blade stuck`. */
function useTabLabel(ticket: TicketDetail | undefined) {
  const location = useLocation();
  const fullPath = `${location.pathname}${location.search}`;
  const label = ticket ? `${ticketNumber(ticket.number)} ${ticket.title}` : undefined;
  useEffect(() => {
    if (label && ticket && fullPath === detailPath(ticket.id)) useTabBar.getState().label(ROUTE, fullPath, label);
  }, [fullPath, label, ticket]);
}

function Facts({ ticket }: { ticket: TicketDetail }) {
  const t = useT();
  const { dateTime } = useFormatTime();
  return (
    <div data-testid="ticket-facts">
    <Descriptions
      column={{ xs: 1, md: 2, xl: 3 }}
      size="small"
      data={[
        {
          label: t('ticket.field.user'),
          value: (
            <Link to={`/operation/user?keyword=${encodeURIComponent(ticket.user.email)}`} title={ticket.user.email}>
              {ticket.user.name || ticket.user.email}
            </Link>
          ),
        },
        { label: t('ticket.field.email'), value: ticket.user.email },
        { label: t('ticket.field.category'), value: t(`ticket.category.${ticket.category}`) },
        { label: t('ticket.field.language'), value: ticket.userLocale || '-' },
        { label: t('ticket.field.app'), value: [ticket.appVersion, ticket.os].filter(Boolean).join(' · ') || '-' },
        { label: t('ticket.field.createdAt'), value: dateTime(ticket.createdAt) },
        { label: t('ticket.field.firstResponseAt'), value: dateTime(ticket.firstResponseAt) },
        { label: t('ticket.field.resolvedAt'), value: dateTime(ticket.resolvedAt) },
        { label: t('ticket.field.slaDue'), value: <SlaCountdown ticket={ticket} /> },
      ]}
    />
    </div>
  );
}

/** /ticket/detail?id=…: the conversation with its composer beside the workflow, the ticket's properties, the mower's snapshot, the customer's rating and other tickets, and the history. */
export default function TicketDetailPage() {
  const t = useT();
  const [id] = useUrlFilters(idFromUrl);
  const query = useTicket(id);
  const ticket = query.data;
  useTabLabel(ticket);
  // Back to the list as its tab left it (filters and view in its URL).
  const listPath = useTabBar((s) => s.tagList.find((tab) => tab.name === 'ticket-list')?.fullPath) ?? '/ticket/list';

  if (id === undefined) {
    return (
      <Card title={t('menu.ticket.detail')} className="ticket-page">
        <div data-testid="ticket-detail-none">
          <Empty description={t('ticket.detail.noId')} />
        </div>
        <div className="ticket-center">
          <Link to={listPath}>{t('ticket.detail.toList')}</Link>
        </div>
      </Card>
    );
  }
  if (!ticket) {
    const missing = query.error instanceof ApiError && query.error.httpStatus === 404;
    return (
      <Card title={t('menu.ticket.detail')} className="ticket-page">
        {query.isError ? (
          <div data-testid="ticket-detail-error">
            <Empty description={t(missing ? 'ticket.detail.notFound' : 'ticket.loadFailed')} />
          </div>
        ) : (
          <div className="ticket-center">
            <Spin />
          </div>
        )}
      </Card>
    );
  }

  return (
    <div className="ticket-detail ticket-page" data-testid="ticket-detail" data-ticket-id={ticket.id}>
      <Card>
        <div className="ticket-header">
          <Link to={listPath} aria-label={t('ticket.detail.toList')} className="ticket-back">
            <IconArrowLeft />
          </Link>
          <Typography.Title heading={5} className="ticket-heading">
            <span className="ticket-mono">{ticketNumber(ticket.number)}</span> <span data-testid="ticket-title">{ticket.title}</span>
          </Typography.Title>
          <Space wrap>
            <TicketStatusTag status={ticket.status} />
            <TicketPriorityTag priority={ticket.priority} />
            {ticket.tags.map((tag) => (
              <Tag key={tag} size="small">
                {tag}
              </Tag>
            ))}
          </Space>
        </div>
        {ticket.mergedIntoId ? (
          <Alert
            type="info"
            className="ticket-merged"
            content={
              <span>
                {t('ticket.detail.mergedInto')} <Link to={detailPath(ticket.mergedIntoId)}>{t('ticket.detail.openMerged')}</Link>
              </span>
            }
          />
        ) : null}
        {ticket.mergedFrom.length > 0 ? (
          <Typography.Text type="secondary">{t('ticket.detail.mergedFrom', { numbers: ticket.mergedFrom.map(ticketNumber).join(', ') })}</Typography.Text>
        ) : null}
        <Facts ticket={ticket} />
        <TicketWorkflow ticket={ticket} />
      </Card>
      <Grid.Row gutter={16} className="ticket-columns">
        <Grid.Col xs={24} xl={15}>
          <Card title={t('ticket.section.conversation')} className="ticket-card">
            <TicketConversation ticket={ticket} />
            <TicketComposer ticket={ticket} />
          </Card>
          <Card title={t('ticket.section.history')} className="ticket-card">
            <TicketHistory history={ticket.history} />
          </Card>
        </Grid.Col>
        <Grid.Col xs={24} xl={9}>
          <Card title={t('ticket.section.properties')} className="ticket-card">
            <TicketProperties ticket={ticket} />
          </Card>
          <Card title={t('ticket.section.device')} className="ticket-card">
            {ticket.device ? <DeviceSnapshot device={ticket.device} /> : <Empty description={t(ticket.sn ? 'ticket.device.noSnapshot' : 'ticket.device.none')} />}
          </Card>
          <Card title={t('ticket.section.rating')} className="ticket-card">
            <TicketRating rating={ticket.rating} />
          </Card>
          <Card title={t('ticket.section.others')} className="ticket-card">
            <OtherTickets tickets={ticket.otherTickets} />
          </Card>
        </Grid.Col>
      </Grid.Row>
      {query.isError ? <Button onClick={() => void query.refetch()}>{t('ticket.retry')}</Button> : null}
    </div>
  );
}
