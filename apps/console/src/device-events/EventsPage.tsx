import { useState } from 'react';
import { Button, Card, Space, Typography } from '@arco-design/web-react';
import { eventSeverities, eventStatuses } from '@mowerline/contract';
import { DeviceDetailDrawer } from '../devices/DeviceDetailDrawer.tsx';
import { useT } from '../locale/i18n.ts';
import { useUrlFilters } from '../router/use-url-filters.ts';
import { EventActionModal, type PendingAction } from './EventActionModal.tsx';
import { EventCounts } from './EventCounts.tsx';
import { EventFilters, type EventFilterValues } from './EventFilters.tsx';
import { EventTable } from './EventTable.tsx';
import { useEventCounts, useEvents } from './events.api.ts';
import '../devices/devices.css';

/** Active events by default; a link (the task-fault page) names a mower and a code (`?sn=&code=`), any status. */
function filterFromUrl(params: URLSearchParams): EventFilterValues {
  const sn = params.get('sn')?.toUpperCase() || undefined;
  const code = params.get('code')?.toUpperCase() || undefined;
  // The workplace links to `?status=active&severity=critical`.
  const severity = eventSeverities.find((s) => s === params.get('severity'));
  const status = eventStatuses.find((s) => s === params.get('status'));
  if (sn || code) return { sn, code, severity, status };
  return { status: status ?? 'active', severity };
}

/** Device → exception events: filter, acknowledge and clear (one or many), counts per code. */
export default function EventsPage() {
  const t = useT();
  const [page, setPage] = useState(1);
  const [filters, setFilters] = useUrlFilters(filterFromUrl, () => setPage(1));
  const [pageSize, setPageSize] = useState(20);
  const [selected, setSelected] = useState<number[]>([]);
  const [action, setAction] = useState<PendingAction>();
  const [openSn, setOpenSn] = useState<string>();
  const events = useEvents({ ...filters, page, pageSize });
  const counts = useEventCounts({ from: filters.from, to: filters.to, severity: filters.severity });
  const applyFilters = (next: EventFilterValues) => {
    setFilters(next);
    setPage(1);
    setSelected([]);
  };
  const selectedEvents = (events.data?.list ?? []).filter((e) => selected.includes(e.id));
  const bulk = (step: PendingAction['step']) => {
    const ids = selectedEvents.filter((e) => (step === 'ack' ? e.status === 'active' : e.status !== 'cleared')).map((e) => e.id);
    setAction({ step, ids });
  };

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card title={t('deviceEvents.counts.title')} bodyStyle={{ paddingTop: 8 }}>
        <EventCounts counts={counts.data} loading={counts.isLoading} onCode={(code) => applyFilters({ ...filters, code })} />
      </Card>
      <Card title={t('menu.device.exceptionEvent')}>
        <EventFilters value={filters} onChange={applyFilters} />
        <div className="events-bulk">
          <Typography.Text type="secondary">{t('deviceEvents.selected', { count: selected.length })}</Typography.Text>
          <Button size="small" type="primary" disabled={!selectedEvents.some((e) => e.status === 'active')} onClick={() => bulk('ack')}>
            {t('deviceEvents.action.bulkAck')}
          </Button>
          <Button size="small" status="warning" disabled={!selectedEvents.some((e) => e.status !== 'cleared')} onClick={() => bulk('clear')}>
            {t('deviceEvents.action.bulkClear')}
          </Button>
        </div>
        <EventTable
          data={events.data}
          loading={events.isLoading || (events.isFetching && events.isPlaceholderData)}
          page={page}
          pageSize={pageSize}
          selected={selected}
          onSelect={setSelected}
          onPage={(nextPage, nextSize) => {
            setPage(nextSize === pageSize ? nextPage : 1);
            setPageSize(nextSize);
            setSelected([]);
          }}
          onAction={setAction}
          onOpenDevice={setOpenSn}
        />
      </Card>
      <EventActionModal
        action={action}
        onClose={(done) => {
          setAction(undefined);
          if (done) setSelected([]);
        }}
      />
      <DeviceDetailDrawer sn={openSn} onClose={() => setOpenSn(undefined)} />
    </Space>
  );
}
