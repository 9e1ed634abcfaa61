import { Table, Tag, type TableColumnProps } from '@arco-design/web-react';
import type { DeviceEvent } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { useFormatTime } from '../locale/format.ts';
import { severityTagColor } from './device-labels.ts';

export const eventStatusColor = { active: 'red', acknowledged: 'orange', cleared: 'green' } as const;

/** A device's recent exception events, newest first (the detail drawer). */
export function DeviceEventsList({ events }: { events: DeviceEvent[] }) {
  const t = useT();
  const { dateTime } = useFormatTime();
  const columns: TableColumnProps<DeviceEvent>[] = [
    { title: t('devices.event.severity'), dataIndex: 'severity', width: 100, render: (_, e) => <Tag color={severityTagColor[e.severity]}>{t(`devices.severity.${e.severity}`)}</Tag> },
    { title: t('devices.event.code'), dataIndex: 'code', render: (_, e) => <span title={e.code}>{e.codeText || e.code}</span> },
    { title: t('devices.event.status'), dataIndex: 'status', width: 100, render: (_, e) => <Tag color={eventStatusColor[e.status]} bordered>{t(`devices.eventStatus.${e.status}`)}</Tag> },
    { title: t('devices.event.lastAt'), dataIndex: 'lastAt', width: 170, render: (at: string) => dateTime(at) },
  ];
  return <Table rowKey="id" size="small" columns={columns} data={events} pagination={false} border={false} noDataElement={<div className="devices-empty">{t('devices.event.none')}</div>} />;
}
