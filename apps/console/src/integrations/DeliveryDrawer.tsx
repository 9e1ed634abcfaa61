import { Button, Drawer, Empty, Space, Table, Tag, Typography, type TableColumnProps } from '@arco-design/web-react';
import { IconRefresh } from '@arco-design/web-react/icon';
import type { Webhook, WebhookDelivery } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { useFormatTime } from '../locale/format.ts';
import { usePaging } from '../components/usePaging.ts';
import { namedExpandIcon } from '../components/a11y.tsx';
import { useDeliveries, useRetryDelivery } from './integrations.api.ts';

const statusColor = { pending: 'orange', succeeded: 'green', failed: 'red' } as const;

/** One webhook's delivery log: status, attempts, answer and duration; a row opens its headers and answer. */
export function DeliveryDrawer({ webhook, onClose }: { webhook?: Webhook; onClose(): void }) {
  const t = useT();
  const { dateTime } = useFormatTime();
  const { page, pageSize, pagination } = usePaging();
  const log = useDeliveries(webhook?.id, page, pageSize);
  const retry = useRetryDelivery();

  const columns: TableColumnProps<WebhookDelivery>[] = [
    { title: t('integrations.deliveries.time'), dataIndex: 'createdAt', width: 170, render: (at: string) => dateTime(at) },
    { title: t('integrations.deliveries.event'), dataIndex: 'eventType', width: 190, render: (e: string) => <code>{e}</code> },
    {
      title: t('integrations.deliveries.status'),
      dataIndex: 'status',
      width: 200,
      render: (_, d) => (
        <Space direction="vertical" size={2}>
          <Tag color={statusColor[d.status]} data-status={d.status}>
            {t(`integrations.deliveries.status.${d.status}`)}
          </Tag>
          {d.nextAt && <Typography.Text type="secondary">{t('integrations.deliveries.nextAt', { time: dateTime(d.nextAt) })}</Typography.Text>}
        </Space>
      ),
    },
    { title: t('integrations.deliveries.attempts'), dataIndex: 'attempts', width: 90 },
    { title: t('integrations.deliveries.response'), dataIndex: 'responseStatus', width: 100, render: (s: number | null) => s ?? '-' },
    { title: t('integrations.deliveries.duration'), dataIndex: 'durationMs', width: 100, render: (ms: number | null) => (ms === null ? '-' : `${ms} ms`) },
    {
      title: t('integrations.actions'),
      width: 90,
      render: (_, d) =>
        d.status !== 'pending' || d.attempts > 0 ? (
          <Button size="small" type="text" loading={retry.isPending && retry.variables === d.id} onClick={() => void retry.mutateAsync(d.id)}>
            {t('integrations.deliveries.retry')}
          </Button>
        ) : null,
    },
  ];

  return (
    <Drawer width={960} visible={!!webhook} onCancel={onClose} footer={null} title={webhook ? t('integrations.deliveries.title', { url: webhook.url }) : ''} unmountOnExit>
      <Button icon={<IconRefresh />} onClick={() => void log.refetch()} style={{ marginBottom: 12 }}>
        {t('integrations.deliveries.refresh')}
      </Button>
      <Table
        rowKey="id"
        data-testid="delivery-log"
        columns={columns}
        data={log.data?.list ?? []}
        loading={log.isFetching && !log.data}
        border={false}
        noDataElement={<Empty description={t('integrations.deliveries.empty')} />}
        pagination={pagination(log.data?.total ?? 0)}
        expandedRowRender={(d) => <DeliveryDetail delivery={d} />}
        expandProps={{ width: 48, icon: namedExpandIcon((open) => t(open ? 'common.collapseRow' : 'common.expandRow')) }}
      />
    </Drawer>
  );
}

/** The last attempt in full; plain text in the body colour, readable on the expanded row's background in both themes. */
function DeliveryDetail({ delivery }: { delivery: WebhookDelivery }) {
  const t = useT();
  const headers = Object.entries(delivery.requestHeaders);
  const block = { margin: '0 0 12px', whiteSpace: 'pre-wrap', wordBreak: 'break-all' } as const;
  return (
    <dl data-testid="delivery-detail" style={{ margin: 0 }}>
      <dt style={{ fontWeight: 600 }}>{t('integrations.deliveries.headers')}</dt>
      <dd style={{ margin: 0 }}>
        <pre style={block}>{headers.length ? headers.map(([k, v]) => `${k}: ${v}`).join('\n') : '-'}</pre>
      </dd>
      <dt style={{ fontWeight: 600 }}>{t('integrations.deliveries.excerpt')}</dt>
      <dd style={{ margin: 0 }}>
        <pre style={block}>{delivery.responseExcerpt || '-'}</pre>
      </dd>
      <dt style={{ fontWeight: 600 }}>{t('integrations.deliveries.error')}</dt>
      <dd style={{ margin: 0 }}>{delivery.error || '-'}</dd>
    </dl>
  );
}
