import { Descriptions, Empty, Space, Table, Tag, Typography } from '@arco-design/web-react';
import { Link } from 'react-router';
import type { TicketDeviceSnapshot } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { useFormatTime } from '../locale/format.ts';
import { resultColor, severityColor } from '../tasks/labels.ts';

type SnapEvent = TicketDeviceSnapshot['events'][number];
type SnapRun = TicketDeviceSnapshot['runs'][number];

/**
 * The mower as it was when the ticket was filed (model, firmware, online, battery, the 24 h of
 * exception events and task runs before), next to links to the mower as it is now.
 */
export function DeviceSnapshot({ device }: { device: TicketDeviceSnapshot }) {
  const t = useT();
  const { dateTime } = useFormatTime();
  const sn = encodeURIComponent(device.sn);
  return (
    <div data-testid="ticket-device">
      <Space wrap className="ticket-device-links">
        <Link to={`/device/list?sn=${sn}`} aria-label={t('ticket.do.openDevice', { sn: device.sn })}>
          {t('ticket.device.live')}
        </Link>
        <Link to={`/device/device-exception-event?sn=${sn}`}>{t('ticket.device.events')}</Link>
        <Link to={`/task/task-record?sn=${sn}`}>{t('ticket.device.runs')}</Link>
      </Space>
      <Descriptions
        column={2}
        size="small"
        layout="inline-vertical"
        data={[
          { label: t('ticket.field.sn'), value: <span className="ticket-mono">{device.sn}</span> },
          { label: t('ticket.device.model'), value: `${device.modelName} (${device.modelCode})` },
          { label: t('ticket.device.firmware'), value: device.firmware || '-' },
          {
            label: t('ticket.device.online'),
            value: <Tag color={device.online ? 'green' : 'gray'}>{t(device.online ? 'ticket.device.isOnline' : 'ticket.device.isOffline')}</Tag>,
          },
          { label: t('ticket.device.battery'), value: device.battery === null ? '-' : `${device.battery}%` },
          { label: t('ticket.device.state'), value: device.state || '-' },
          { label: t('ticket.device.lastSeen'), value: dateTime(device.lastSeenAt) },
          { label: t('ticket.device.takenAt'), value: dateTime(device.takenAt) },
        ]}
      />
      <Typography.Title heading={6} className="ticket-subtitle">
        {t('ticket.device.eventsTitle')}
      </Typography.Title>
      {device.events.length === 0 ? (
        <Empty description={t('ticket.device.noEvents')} />
      ) : (
        <Table<SnapEvent>
          rowKey="id"
          size="small"
          pagination={false}
          border={false}
          data={device.events}
          data-testid="ticket-device-events"
          columns={[
            { title: t('ticket.device.code'), dataIndex: 'code', width: 150, render: (code: string) => <span className="ticket-mono">{code}</span> },
            { title: t('ticket.device.severity'), dataIndex: 'severity', width: 90, render: (s: string) => <Tag color={severityColor[s] ?? 'gray'}>{t(`devices.severity.${s}`)}</Tag> },
            { title: t('ticket.device.message'), dataIndex: 'message', ellipsis: true, render: (m: string) => <span title={m}>{m || '-'}</span> },
            { title: t('ticket.device.lastAt'), dataIndex: 'lastAt', width: 170, render: (at: string) => dateTime(at) },
          ]}
        />
      )}
      <Typography.Title heading={6} className="ticket-subtitle">
        {t('ticket.device.runsTitle')}
      </Typography.Title>
      {device.runs.length === 0 ? (
        <Empty description={t('ticket.device.noRuns')} />
      ) : (
        <Table<SnapRun>
          rowKey="id"
          size="small"
          pagination={false}
          border={false}
          data={device.runs}
          data-testid="ticket-device-runs"
          columns={[
            { title: t('ticket.device.startedAt'), dataIndex: 'startedAt', width: 170, render: (at: string) => dateTime(at) },
            {
              title: t('ticket.device.result'),
              dataIndex: 'result',
              width: 120,
              render: (r: SnapRun['result'], run) => (r ? <Tag color={resultColor[r]}>{t(`task.result.${r}`)}</Tag> : <Tag>{t(`task.status.${run.status}`)}</Tag>),
            },
            { title: t('ticket.device.fault'), dataIndex: 'faultCode', width: 130, render: (c: string | null) => (c ? <span className="ticket-mono">{c}</span> : '-') },
            { title: t('ticket.device.progress'), dataIndex: 'progressPercent', width: 80, align: 'right', render: (p: number) => `${Math.round(p)}%` },
          ]}
        />
      )}
    </div>
  );
}
