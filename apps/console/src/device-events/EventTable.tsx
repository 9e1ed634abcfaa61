import { Button, Space, Table, Tag, Tooltip, Typography, type TableColumnProps } from '@arco-design/web-react';
import { rowCheckboxLabel } from '../components/a11y.tsx';
import type { DeviceEvent } from '@mowerline/contract';
import { eventStatusColor } from '../devices/DeviceEventsList.tsx';
import { severityTagColor } from '../devices/device-labels.ts';
import { useT } from '../locale/i18n.ts';
import { useFormatTime } from '../locale/format.ts';
import type { PendingAction } from './EventActionModal.tsx';

interface Props {
  data: { list: DeviceEvent[]; total: number; totalExact: boolean } | undefined;
  loading: boolean;
  page: number;
  pageSize: number;
  selected: number[];
  onSelect(ids: number[]): void;
  onPage(page: number, pageSize: number): void;
  onAction(action: PendingAction): void;
  onOpenDevice(sn: string): void;
}

function Handled({ by, at, comment }: { by: string | null; at: string | null; comment: string }) {
  const { dateTime } = useFormatTime();
  if (!at) return null;
  const text = `${by ?? '-'} · ${dateTime(at)}`;
  return (
    <Tooltip content={comment || text}>
      <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block' }}>
        {text}
        {comment && ` · ${comment}`}
      </Typography.Text>
    </Tooltip>
  );
}

/** Exception events with their lifecycle; selectable rows for bulk acknowledge/clear. */
export function EventTable({ data, loading, page, pageSize, selected, onSelect, onPage, onAction, onOpenDevice }: Props) {
  const t = useT();
  const { dateTime, relative } = useFormatTime();
  const columns: TableColumnProps<DeviceEvent>[] = [
    { title: t('deviceEvents.field.severity'), dataIndex: 'severity', width: 100, render: (_, e) => <Tag color={severityTagColor[e.severity]} data-severity={e.severity}>{t(`devices.severity.${e.severity}`)}</Tag> },
    {
      title: t('deviceEvents.field.sn'),
      dataIndex: 'sn',
      width: 160,
      render: (sn: string) => (
        <Typography.Text style={{ color: 'rgb(var(--ml-primary-text))', cursor: 'pointer', fontFamily: 'monospace' }} onClick={() => onOpenDevice(sn)}>
          {sn}
        </Typography.Text>
      ),
    },
    {
      title: t('deviceEvents.field.code'),
      dataIndex: 'code',
      width: 220,
      render: (_, e) => (
        <div>
          <div>{e.codeText || e.code}</div>
          <Typography.Text type="secondary" style={{ fontSize: 12, fontFamily: 'monospace' }}>{e.code}</Typography.Text>
        </div>
      ),
    },
    { title: t('deviceEvents.field.message'), dataIndex: 'message', ellipsis: true, tooltip: true, render: (m: string) => m || '-' },
    { title: t('deviceEvents.field.occurrences'), dataIndex: 'occurrences', width: 90, align: 'right' },
    {
      title: t('deviceEvents.field.lastAt'),
      dataIndex: 'lastAt',
      width: 150,
      render: (at: string, e) => (
        <Tooltip content={`${t('deviceEvents.field.firstAt')}: ${dateTime(e.firstAt)}`}>
          <span>{relative(at)}</span>
        </Tooltip>
      ),
    },
    {
      title: t('deviceEvents.field.status'),
      dataIndex: 'status',
      width: 240,
      render: (_, e) => (
        <div>
          <Tag color={eventStatusColor[e.status]} data-status={e.status}>{t(`devices.eventStatus.${e.status}`)}</Tag>
          <Handled by={e.ackBy} at={e.ackAt} comment={e.ackComment} />
          <Handled by={e.clearedBy} at={e.clearedAt} comment={e.clearComment} />
        </div>
      ),
    },
    {
      title: t('devices.field.actions'),
      dataIndex: 'actions',
      width: 220,
      fixed: 'right',
      render: (_, e) => (
        <Space size={0}>
          {e.status === 'active' && (
            <Button type="text" size="small" onClick={() => onAction({ step: 'ack', ids: [e.id] })}>
              {t('deviceEvents.action.ack')}
            </Button>
          )}
          {e.status !== 'cleared' && (
            <Button type="text" size="small" status="warning" onClick={() => onAction({ step: 'clear', ids: [e.id] })}>
              {t('deviceEvents.action.clear')}
            </Button>
          )}
        </Space>
      ),
    },
  ];
  const total = data?.total ?? 0;
  return (
    <Table
      rowKey="id"
      columns={columns}
      data={data?.list ?? []}
      loading={loading}
      border={false}
      scroll={{ x: 1390 }}
      rowSelection={{
        type: 'checkbox',
        selectedRowKeys: selected,
        onChange: (keys) => onSelect(keys as number[]),
        checkboxProps: (e) => ({ disabled: e.status === 'cleared', ...rowCheckboxLabel(t('common.selectRow', { name: `${e.sn} ${e.code}` })) }),
      }}
      noDataElement={<div className="devices-empty">{t('deviceEvents.empty')}</div>}
      pagination={{
        current: page,
        pageSize,
        total,
        sizeCanChange: true,
        sizeOptions: [10, 20, 50, 100],
        showTotal: () => t(data?.totalExact === false ? 'deviceEvents.totalAbout' : 'deviceEvents.total', { total: total.toLocaleString() }),
      }}
      onChange={(pagination) => onPage(pagination.current ?? 1, pagination.pageSize ?? pageSize)}
    />
  );
}
