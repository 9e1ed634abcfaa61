import { useMemo } from 'react';
import { Alert, Button, Card, Space, Table, Tag, Tooltip, Typography, type TableColumnProps } from '@arco-design/web-react';
import { IconCheckCircle, IconClockCircle, IconCloseCircle, IconRefresh } from '@arco-design/web-react/icon';
import type { EventSubscriberStatus } from '@mowerline/contract';
import { useLocaleStore, useT } from '../locale/i18n.ts';
import { useFormatTime } from '../locale/format.ts';
import { EVENT_DELIVERY_REFRESH_MS, useEventDelivery } from './event-delivery.api.ts';
import { formatLag } from './lag.ts';
import './event-delivery.css';

type Health = 'failing' | 'behind' | 'ok';

/** A subscriber whose deliveries keep failing needs an admin; one with deliveries waiting is catching up. */
function healthOf(s: Pick<EventSubscriberStatus, 'pending' | 'failing'>): Health {
  if (s.failing > 0) return 'failing';
  if (s.pending > 0) return 'behind';
  return 'ok';
}

const healthLook = {
  failing: { color: 'red', icon: <IconCloseCircle /> },
  behind: { color: 'orangered', icon: <IconClockCircle /> },
  ok: { color: 'green', icon: <IconCheckCircle /> },
} as const;

/** The status in words and an icon, so it does not rest on colour alone. */
function HealthTag({ health }: { health: Health }) {
  const t = useT();
  const look = healthLook[health];
  return (
    <Tag color={look.color} icon={look.icon} data-health={health}>
      {t(`eventDelivery.health.${health}`)}
    </Tag>
  );
}

/** System → event delivery: how far each subscriber of the event stream is behind, and what keeps failing. */
export default function EventDeliveryPage() {
  const t = useT();
  const locale = useLocaleStore((s) => s.locale);
  const { dateTime, relative } = useFormatTime();
  const status = useEventDelivery();
  const subscribers = status.data?.subscribers;
  const count = (n: number) => n.toLocaleString(locale);

  const columns = useMemo<TableColumnProps<EventSubscriberStatus>[]>(
    () => [
      { title: t('eventDelivery.column.name'), dataIndex: 'name', width: 160, render: (name: string) => <span className="event-delivery-mono">{name}</span> },
      { title: t('eventDelivery.column.health'), dataIndex: 'health', width: 130, render: (_, s) => <HealthTag health={healthOf(s)} /> },
      {
        title: t('eventDelivery.column.types'),
        dataIndex: 'types',
        width: 300,
        render: (types: string[]) => (
          <Space size={4} wrap>
            {types.map((type) => (
              <Tag key={type} size="small" bordered>
                <span className="event-delivery-mono">{type}</span>
              </Tag>
            ))}
          </Space>
        ),
      },
      { title: t('eventDelivery.column.pending'), dataIndex: 'pending', width: 100, align: 'right', render: (n: number) => <span data-field="pending">{count(n)}</span> },
      { title: t('eventDelivery.column.failing'), dataIndex: 'failing', width: 100, align: 'right', render: (n: number) => <span data-field="failing">{count(n)}</span> },
      {
        title: t('eventDelivery.column.lag'),
        dataIndex: 'lagSeconds',
        width: 140,
        render: (seconds: number, s) => {
          if (s.pending === 0) return <span data-field="lag">{t('eventDelivery.noLag')}</span>;
          const lag = formatLag(seconds, locale) ?? t('eventDelivery.underSecond');
          return (
            <Tooltip content={t('eventDelivery.oldestPending', { at: dateTime(s.oldestPendingAt) })}>
              <span data-field="lag" tabIndex={0}>
                {lag}
              </span>
            </Tooltip>
          );
        },
      },
      { title: t('eventDelivery.column.delivered'), dataIndex: 'delivered', width: 120, align: 'right', render: (n: number) => <span data-field="delivered">{count(n)}</span> },
      {
        title: t('eventDelivery.column.lastError'),
        dataIndex: 'lastError',
        width: 340,
        render: (error: string | null, s) =>
          error ? (
            <div data-field="last-error">
              <Typography.Paragraph className="event-delivery-error" ellipsis={{ rows: 2, showTooltip: true }}>
                {error}
              </Typography.Paragraph>
              {s.lastErrorAt && (
                <Typography.Text type="secondary" className="event-delivery-error-at">
                  {dateTime(s.lastErrorAt)} · {relative(s.lastErrorAt)}
                </Typography.Text>
              )}
            </div>
          ) : (
            '-'
          ),
      },
    ],
    [t, locale, dateTime, relative],
  );

  const failing = subscribers?.filter((s) => s.failing > 0).length ?? 0;
  return (
    <Card
      bordered={false}
      title={t('menu.system.eventDelivery')}
      extra={
        <Space size={12}>
          {status.dataUpdatedAt > 0 && (
            <Typography.Text type="secondary" data-testid="event-delivery-updated">
              {t('eventDelivery.updated', { at: dateTime(new Date(status.dataUpdatedAt).toISOString()), seconds: EVENT_DELIVERY_REFRESH_MS / 1000 })}
            </Typography.Text>
          )}
          <Button icon={<IconRefresh />} aria-label={t('eventDelivery.refresh')} loading={status.isFetching} onClick={() => void status.refetch()} data-testid="event-delivery-refresh">
            {t('eventDelivery.refresh')}
          </Button>
        </Space>
      }
    >
      {status.isError && (
        <Alert
          type="error"
          className="event-delivery-alert"
          data-testid="event-delivery-error"
          content={subscribers ? t('eventDelivery.staleError') : t('eventDelivery.loadFailed')}
          action={
            <Button size="mini" onClick={() => void status.refetch()}>
              {t('eventDelivery.retry')}
            </Button>
          }
        />
      )}
      {failing > 0 && (
        <Alert type="warning" className="event-delivery-alert" data-testid="event-delivery-failing" content={t('eventDelivery.failingSummary', { count: failing })} />
      )}
      {!(status.isError && !subscribers) && (
        <Table
          rowKey="name"
          columns={columns}
          data={subscribers ?? []}
          loading={status.isLoading}
          border={false}
          pagination={false}
          scroll={{ x: 1390 }}
          rowClassName={(s) => (healthOf(s) === 'failing' ? 'event-delivery-failing' : '')}
          noDataElement={
            <div className="event-delivery-empty" data-testid="event-delivery-empty">
              {t('eventDelivery.empty')}
            </div>
          }
          data-testid="event-delivery-table"
        />
      )}
    </Card>
  );
}
