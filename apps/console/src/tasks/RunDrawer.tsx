import { lazy, Suspense } from 'react';
import { Alert, Button, Descriptions, Drawer, Skeleton, Space, Spin, Table, Timeline, Typography, type TableColumnProps } from '@arco-design/web-react';
import { Link } from 'react-router';
import type { RunEvent, TaskRun, TaskRunDetail, Zone } from '@mowerline/contract';
import { useLocaleStore, useT } from '../locale/i18n.ts';
import { useFormatTime } from '../locale/format.ts';
import { useSettings } from '../settings/settings.store.ts';
import { duration, eventText, faultLabel, num } from './labels.ts';
import { useRunDetail } from './tasks.api.ts';
import { FaultCode, ResultTag, RunStateTag, TriggerTag } from './TaskCells.tsx';

// maplibre is most of the drawer's JavaScript: it loads in its own chunk.
const RunMap = lazy(() => import('./RunMap.tsx'));

const eventColor: Record<RunEvent['type'], string> = { started: '#165DFF', progress: '#86909C', paused: '#FF7D00', resumed: '#14C9C9', ended: '#00B42A' };

function Summary({ run }: { run: TaskRunDetail }) {
  const t = useT();
  const locale = useLocaleStore((s) => s.locale);
  const { dateTime } = useFormatTime();
  const m2 = (v: number | null) => (v === null ? '-' : t('task.unit.m2', { value: num(v, locale, 0) }));
  return (
    <Descriptions
      column={2}
      size="small"
      labelStyle={{ width: 110 }}
      data={[
        { label: t('task.field.sn'), value: <Link to={`/device/list?sn=${encodeURIComponent(run.sn)}`} className="task-mono">{run.sn}</Link> },
        { label: t('task.field.owner'), value: run.ownerEmail || '-' },
        { label: t('task.field.model'), value: run.modelCode },
        { label: t('task.field.firmware'), value: run.firmware || '-' },
        { label: t('taskRun.field.trigger'), value: <TriggerTag trigger={run.trigger} /> },
        { label: t('taskRun.field.result'), value: <RunStateTag run={run} /> },
        { label: t('taskRun.field.schedule'), value: run.scheduleName ?? '-' },
        { label: t('taskRun.field.fault'), value: <FaultCode code={run.faultCode} /> },
        { label: t('taskRun.field.zones'), value: run.zones.length ? run.zones.join(', ') : t('task.wholeGarden') },
        { label: t('taskRun.field.progress'), value: `${num(run.progressPercent, locale, 0)}%` },
        { label: t('taskRun.field.area'), value: m2(run.areaM2) },
        { label: t('taskRun.field.planned'), value: m2(run.plannedAreaM2) },
        { label: t('taskRun.field.duration'), value: duration(run.durationS) },
        { label: t('taskRun.field.bladeOn'), value: duration(run.bladeOnS) },
        { label: t('taskRun.field.distance'), value: `${num(run.distanceM, locale, 0)} m` },
        { label: t('taskRun.field.pauses'), value: run.pauses },
        { label: t('task.field.startedAt'), value: dateTime(run.startedAt) },
        { label: t('task.field.endedAt'), value: dateTime(run.endedAt) },
        { label: t('taskRun.field.runId'), value: <span className="task-mono">{run.runId}</span>, span: 2 },
      ]}
    />
  );
}

/** Start, pauses (charging is a pause, not an end), resumes, the fault and the end; progress reports folded into a count. */
function RunTimeline({ run }: { run: TaskRunDetail }) {
  const t = useT();
  const locale = useLocaleStore((s) => s.locale);
  const { dateTime } = useFormatTime();
  const shown = run.events.filter((e) => e.type !== 'progress');
  const progress = run.events.length - shown.length;
  return (
    <Timeline data-testid="task-run-timeline">
      {shown.map((e) => {
        const fault = e.type === 'ended' && run.faultCode ? faultLabel(run.faultCode, locale) : undefined;
        return (
          <Timeline.Item key={e.seq} label={dateTime(e.at)} dotColor={e.type === 'ended' && fault ? '#F53F3F' : eventColor[e.type]}>
            <span data-event={e.type} data-reason={e.type === 'paused' ? String(e.detail.reason ?? '') : undefined}>
              {eventText(e, t, locale)}
            </span>
            {fault && (
              <div data-fault={fault.code}>
                <Typography.Text type="error">{t('taskRun.event.fault', { code: fault.code, title: fault.title })}</Typography.Text>
                {fault.fix && <div className="task-fault-fix">{t('taskFault.fix', { fix: fault.fix })}</div>}
              </div>
            )}
          </Timeline.Item>
        );
      })}
      {progress > 0 && (
        <Timeline.Item dotColor={eventColor.progress} lineType="dashed">
          <Typography.Text type="secondary">{t('taskRun.event.progressCount', { count: progress })}</Typography.Text>
        </Timeline.Item>
      )}
    </Timeline>
  );
}

function ChainLink({ label, run, onOpen }: { label: string; run: TaskRun; onOpen(id: number): void }) {
  const t = useT();
  const { dateTime } = useFormatTime();
  return (
    <Space size={8} wrap data-chain={label}>
      <Typography.Text type="secondary">{label}</Typography.Text>
      <Button type="text" size="mini" onClick={() => onOpen(run.id)} aria-label={t('taskRun.openRun', { runId: run.runId })} data-open-run={run.id}>
        {dateTime(run.startedAt)} · <span className="task-mono">{run.runId}</span>
      </Button>
      <RunStateTag run={run} />
      {run.result && run.faultCode && <FaultCode code={run.faultCode} />}
    </Space>
  );
}

function ZoneTable({ zones, run }: { zones: Zone[]; run: TaskRunDetail }) {
  const t = useT();
  const locale = useLocaleStore((s) => s.locale);
  const { dateTime, relative } = useFormatTime();
  const columns: TableColumnProps<Zone>[] = [
    {
      title: t('taskRun.zone.name'),
      dataIndex: 'name',
      render: (name: string, z) => (
        <span data-zone={z.id}>
          {name} <Typography.Text type="secondary">({z.id})</Typography.Text>
          {(run.zones.length === 0 || run.zones.includes(z.id)) && <Typography.Text type="success"> · {t('taskRun.zone.inRun')}</Typography.Text>}
        </span>
      ),
    },
    { title: t('taskRun.zone.area'), dataIndex: 'areaM2', width: 120, align: 'right', render: (a: number) => t('task.unit.m2', { value: num(a, locale, 0) }) },
    {
      title: t('taskRun.zone.lastMowed'),
      dataIndex: 'lastMowedAt',
      width: 170,
      render: (at: string | null) => (at ? <span title={dateTime(at)} data-last-mowed={at}>{relative(at)}</span> : <Typography.Text type="secondary">{t('taskRun.zone.never')}</Typography.Text>),
    },
    {
      title: t('taskRun.zone.lastRun'),
      dataIndex: 'lastRunResult',
      width: 150,
      render: (result: string | null, z) =>
        result && z.lastRunAt ? (
          <Space size={4}>
            {['completed', 'user_ended', 'interrupted', 'failed'].includes(result) ? <ResultTag result={result as never} /> : result}
            <span>{relative(z.lastRunAt)}</span>
          </Space>
        ) : (
          '-'
        ),
    },
  ];
  return (
    <Table
      rowKey="id"
      size="small"
      columns={columns}
      data={zones}
      pagination={false}
      border={false}
      data-testid="task-run-zones"
      noDataElement={<div className="devices-empty">{t('taskSchedule.zones.none')}</div>}
    />
  );
}

function MapLegend() {
  const t = useT();
  return (
    <div className="task-map-legend" aria-hidden>
      <span>
        <i style={{ background: '#165DFF' }} />
        {t('taskRun.map.path')}
      </span>
      <span>
        <i style={{ background: '#00B42A', borderRadius: '50%' }} />
        {t('taskRun.map.start')}
      </span>
      <span>
        <i style={{ background: '#F53F3F', borderRadius: '50%' }} />
        {t('taskRun.map.end')}
      </span>
      <span>
        <i style={{ background: 'rgb(0 180 42 / 35%)', border: '1px solid #00B42A' }} />
        {t('taskRun.map.zone')}
      </span>
    </div>
  );
}

/** One run: summary, its path over the garden, the timeline, the run it resumed (and the one that resumed it), and per zone "last mowed". */
export function RunDrawer({ id, onOpen, onClose }: { id: number | undefined; onOpen(id: number): void; onClose(): void }) {
  const t = useT();
  const theme = useSettings((s) => s.theme);
  const detail = useRunDetail(id);
  const run = detail.data?.id === id ? detail.data : undefined;
  return (
    <Drawer
      width={820}
      visible={id !== undefined}
      onCancel={onClose}
      footer={null}
      unmountOnExit
      title={
        <Space>
          <span>{run ? `${t('taskRun.detail')} · ${run.sn}` : t('taskRun.detail')}</span>
          {run && <RunStateTag run={run} />}
        </Space>
      }
    >
      {detail.isError && !run ? (
        <Alert type="error" data-testid="task-run-detail-error" content={t('task.loadFailed')} action={<Button size="mini" onClick={() => void detail.refetch()}>{t('task.retry')}</Button>} />
      ) : !run ? (
        <Skeleton text={{ rows: 8 }} animation />
      ) : (
        <div data-testid="task-run-detail" data-run-id={run.id}>
          <div className="device-detail-section">{t('taskRun.section.summary')}</div>
          <Summary run={run} />
          <div className="device-detail-section">{t('taskRun.section.map')}</div>
          <div className="task-map-wrap">
            <Suspense fallback={<div className="task-map-overlay"><Spin /></div>}>
              <RunMap path={run.path} zones={run.zonesDetail} runZones={run.zones} theme={theme} ariaLabel={t('taskRun.map.label', { sn: run.sn })} />
            </Suspense>
            {!run.path && (
              <div className="task-map-overlay" data-testid="task-run-map-empty">
                {t(run.zonesDetail.length ? 'taskRun.map.noPath' : 'taskRun.map.noGarden')}
              </div>
            )}
            <MapLegend />
          </div>
          <div className="device-detail-section">{t('taskRun.section.timeline')}</div>
          <RunTimeline run={run} />
          <div className="device-detail-section">{t('taskRun.section.chain')}</div>
          <Space direction="vertical" size={4} data-testid="task-run-chain">
            {run.resumes && <ChainLink label={t('taskRun.resumes')} run={run.resumes} onOpen={onOpen} />}
            {run.resumedBy && <ChainLink label={t('taskRun.resumedBy')} run={run.resumedBy} onOpen={onOpen} />}
            {!run.resumes && !run.resumedBy && <Typography.Text type="secondary">{t('taskRun.noChain')}</Typography.Text>}
          </Space>
          <div className="device-detail-section">{t('taskRun.section.zones')}</div>
          <ZoneTable zones={run.zonesDetail} run={run} />
        </div>
      )}
    </Drawer>
  );
}
