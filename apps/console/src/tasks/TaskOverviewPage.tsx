import { lazy, Suspense } from 'react';
import { Card, Space, Spin, Table, Typography, type TableColumnProps } from '@arco-design/web-react';
import { TASK_REPORT_DAYS, type TaskStats } from '@mowerline/contract';
import { useLocaleStore, useT } from '../locale/i18n.ts';
import { num, percent, viewerTimeZone } from './labels.ts';
import { useTaskDailyReport, useTaskOverview } from './tasks.api.ts';
import { QueryState } from './TaskCells.tsx';
import '../devices/devices.css';
import './tasks.css';

// ECharts is most of this page's JavaScript: it loads in its own chunk.
const DailyReportChart = lazy(() => import('./DailyReportChart.tsx'));

function StatCard({ title, value, sub, testId }: { title: string; value: string; sub: string; testId: string }) {
  return (
    <div className="task-card" data-testid={testId} role="group" aria-label={title}>
      <div className="task-card-title">{title}</div>
      <div className="task-card-value" data-value={value}>
        {value}
      </div>
      <div className="task-card-sub">{sub}</div>
    </div>
  );
}

type Split = TaskStats & { key: string };

function SplitTable({ rows, keyTitle, testId }: { rows: Split[]; keyTitle: string; testId: string }) {
  const t = useT();
  const locale = useLocaleStore((s) => s.locale);
  const columns: TableColumnProps<Split>[] = [
    { title: keyTitle, dataIndex: 'key', render: (k: string) => <span className="task-mono">{k || '-'}</span> },
    { title: t('taskOverview.column.runs'), dataIndex: 'runs', align: 'right', render: (n: number) => n.toLocaleString(locale) },
    { title: t('taskOverview.column.completion'), dataIndex: 'completionRate', align: 'right', render: (r: number) => percent(r) },
    { title: t('taskOverview.column.interruption'), dataIndex: 'interruptionRate', align: 'right', render: (r: number) => percent(r) },
    { title: t('taskOverview.column.area'), dataIndex: 'area', align: 'right', render: (a: number) => num(a, locale, 0) },
    { title: t('taskOverview.column.hours'), dataIndex: 'hours', align: 'right', render: (h: number) => num(h, locale) },
    { title: t('taskOverview.column.faults'), dataIndex: 'faultsPer100Runs', align: 'right', render: (f: number) => num(f, locale) },
  ];
  return (
    <Table
      rowKey="key"
      size="small"
      columns={columns}
      data={rows}
      border={false}
      data-testid={testId}
      pagination={rows.length > 10 ? { pageSize: 10, size: 'mini', simple: true } : false}
      noDataElement={<div className="devices-empty">{t('task.empty')}</div>}
    />
  );
}

/** Tasks → overview: today and the last 30 days at a glance, split by model and firmware, and the 30-day daily report. */
export default function TaskOverviewPage() {
  const t = useT();
  const locale = useLocaleStore((s) => s.locale);
  const overview = useTaskOverview(TASK_REPORT_DAYS);
  const report = useTaskDailyReport();
  const o = overview.data;
  const days = o?.days ?? TASK_REPORT_DAYS;
  const windowSub = t('taskOverview.sub.window', { days });
  const today = (value: string) => t('taskOverview.sub.today', { value });

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card title={t('menu.task.overview')} extra={<Typography.Text type="secondary">{t('taskOverview.tz', { tz: viewerTimeZone() })}</Typography.Text>}>
        <QueryState loading={overview.isLoading} error={overview.isError && !o} empty={false} onRetry={() => void overview.refetch()} testId="task-overview">
          {o && (
            <div className="task-cards" data-testid="task-overview-cards">
              <StatCard testId="task-card-runs-today" title={t('taskOverview.card.runsToday')} value={o.today.runs.toLocaleString(locale)} sub={t('taskOverview.sub.ended', { ended: o.today.ended, completed: o.today.completed })} />
              <StatCard testId="task-card-running" title={t('taskOverview.card.runningNow')} value={o.runningNow.toLocaleString(locale)} sub={t('taskOverview.sub.paused', { count: o.pausedNow })} />
              <StatCard testId="task-card-completion" title={t('taskOverview.card.completionRate')} value={percent(o.window.completionRate)} sub={`${windowSub} · ${today(percent(o.today.completionRate))}`} />
              <StatCard testId="task-card-interruption" title={t('taskOverview.card.interruptionRate')} value={percent(o.window.interruptionRate)} sub={`${windowSub} · ${today(percent(o.today.interruptionRate))}`} />
              <StatCard testId="task-card-area" title={t('taskOverview.card.area')} value={t('task.unit.m2', { value: num(o.window.area, locale, 0) })} sub={`${windowSub} · ${today(num(o.today.area, locale, 0))}`} />
              <StatCard testId="task-card-hours" title={t('taskOverview.card.hours')} value={t('task.unit.hours', { value: num(o.window.hours, locale) })} sub={`${windowSub} · ${today(num(o.today.hours, locale))}`} />
              <StatCard testId="task-card-faults" title={t('taskOverview.card.faults')} value={num(o.window.faultsPer100Runs, locale)} sub={`${windowSub} · ${today(num(o.today.faultsPer100Runs, locale))}`} />
            </div>
          )}
        </QueryState>
      </Card>
      <Card title={t('taskOverview.daily', { days: TASK_REPORT_DAYS })}>
        <QueryState
          loading={report.isLoading}
          error={report.isError && !report.data}
          empty={!!report.data && report.data.list.every((d) => d.runs === 0)}
          onRetry={() => void report.refetch()}
          testId="task-daily"
        >
          <Suspense fallback={<Spin style={{ display: 'block', margin: '48px auto' }} />}>
            <DailyReportChart list={report.data?.list ?? []} />
          </Suspense>
        </QueryState>
      </Card>
      <Card title={t('taskOverview.split', { days })}>
        <QueryState loading={overview.isLoading} error={overview.isError && !o} empty={!!o && o.byModel.length === 0 && o.byFirmware.length === 0} onRetry={() => void overview.refetch()} testId="task-split">
          <div className="task-split">
            <div>
              <Typography.Title heading={6}>{t('taskOverview.byModel')}</Typography.Title>
              <SplitTable rows={(o?.byModel ?? []).map((m) => ({ ...m, key: m.model }))} keyTitle={t('task.field.model')} testId="task-by-model" />
            </div>
            <div>
              <Typography.Title heading={6}>{t('taskOverview.byFirmware')}</Typography.Title>
              <SplitTable rows={(o?.byFirmware ?? []).map((f) => ({ ...f, key: f.firmware }))} keyTitle={t('task.field.firmware')} testId="task-by-firmware" />
            </div>
          </div>
        </QueryState>
      </Card>
    </Space>
  );
}
