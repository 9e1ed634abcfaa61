import { Descriptions, Empty, Space, Tag, Typography } from '@arco-design/web-react';
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
        <ul className="ticket-snap-list" data-testid="ticket-device-events">
          {device.events.map((e: SnapEvent) => (
            <li key={e.id}>
              <Space size={8} wrap>
                <span className="ticket-mono">{e.code}</span>
                <Tag size="small" color={severityColor[e.severity] ?? 'gray'}>
                  {t(`devices.severity.${e.severity}`)}
                </Tag>
                {e.occurrences > 1 ? <Typography.Text type="secondary">×{e.occurrences}</Typography.Text> : null}
              </Space>
              {e.message ? <div className="ticket-entry-body">{e.message}</div> : null}
              <Typography.Text type="secondary" className="ticket-snap-time">
                {t('ticket.device.lastAt')}: {dateTime(e.lastAt)}
              </Typography.Text>
            </li>
          ))}
        </ul>
      )}
      <Typography.Title heading={6} className="ticket-subtitle">
        {t('ticket.device.runsTitle')}
      </Typography.Title>
      {device.runs.length === 0 ? (
        <Empty description={t('ticket.device.noRuns')} />
      ) : (
        <ul className="ticket-snap-list" data-testid="ticket-device-runs">
          {device.runs.map((run: SnapRun) => (
            <li key={run.id}>
              <Space size={8} wrap>
                {run.result ? <Tag size="small" color={resultColor[run.result]}>{t(`task.result.${run.result}`)}</Tag> : <Tag size="small">{t(`task.status.${run.status}`)}</Tag>}
                {run.faultCode ? <span className="ticket-mono">{run.faultCode}</span> : null}
                <Typography.Text type="secondary">{`${Math.round(run.progressPercent)}%`}</Typography.Text>
              </Space>
              <Typography.Text type="secondary" className="ticket-snap-time">
                {t('ticket.device.startedAt')}: {dateTime(run.startedAt)}
              </Typography.Text>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
