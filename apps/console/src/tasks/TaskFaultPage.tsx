import { lazy, Suspense, useMemo, useState } from 'react';
import { Card, DatePicker, Form, Input, Space, Spin, Table, Tag, Typography, type TableColumnProps } from '@arco-design/web-react';
import { Link } from 'react-router';
import type { TaskFaultQuery, TaskFaultReport } from '@mowerline/contract';
import { FilterActions } from '../components/FilterActions.tsx';
import { useLocaleStore, useT } from '../locale/i18n.ts';
import { useFormatTime } from '../locale/format.ts';
import { faultLabel } from './labels.ts';
import { useTaskFaults } from './tasks.api.ts';
import { QueryState, SeverityTag } from './TaskCells.tsx';
import '../devices/devices.css';
import './tasks.css';

// ECharts loads in its own chunk.
const FaultTrendChart = lazy(() => import('./FaultTrendChart.tsx'));

type Group = TaskFaultReport['list'][number];
type Filters = Partial<Pick<TaskFaultQuery, 'from' | 'to' | 'model' | 'firmware'>>;

function Filters({ onChange }: { onChange(next: Filters): void }) {
  const t = useT();
  const [form] = Form.useForm<{ range?: Date[]; model?: string; firmware?: string }>();
  const submit = () => {
    const v = form.getFieldsValue();
    const [from, to] = v.range ?? [];
    onChange({ from: from ? new Date(from).toISOString() : undefined, to: to ? new Date(to).toISOString() : undefined, model: v.model?.trim() || undefined, firmware: v.firmware?.trim() || undefined });
  };
  return (
    <div className="device-filters">
      <Form form={form} layout="inline" onSubmit={submit}>
        <Form.Item label={t('taskFault.range')} field="range">
          <DatePicker.RangePicker showTime placeholder={[t('taskFault.defaultRange'), t('taskFault.defaultRangeEnd')]} style={{ width: 380 }} />
        </Form.Item>
        <Form.Item label={t('task.field.model')} field="model">
          <Input allowClear maxLength={64} placeholder={t('task.filter.modelHint')} onPressEnter={submit} style={{ width: 160 }} />
        </Form.Item>
        <Form.Item label={t('task.field.firmware')} field="firmware">
          <Input allowClear maxLength={32} placeholder="1.2.3" onPressEnter={submit} style={{ width: 140 }} />
        </Form.Item>
        <FilterActions
          onReset={() => {
            form.resetFields();
            onChange({});
          }}
        />
      </Form>
    </div>
  );
}

function Counts({ items }: { items: Array<{ key: string; count: number }> }) {
  return (
    <Space size={4} wrap>
      {items.map((i) => (
        <Tag key={i.key} size="small" bordered>
          <span className="task-mono">{i.key || '-'}</span>: {i.count}
        </Tag>
      ))}
    </Space>
  );
}

/** Tasks → task faults: runs ended by a fault, by code, with counts per model and firmware, a daily trend, and links onward. */
export default function TaskFaultPage() {
  const t = useT();
  const locale = useLocaleStore((s) => s.locale);
  const { dateTime } = useFormatTime();
  const [filters, setFilters] = useState<Filters>({});
  const report = useTaskFaults(filters);
  const data = report.data;
  const columns = useMemo<TableColumnProps<Group>[]>(
    () => [
      { title: t('taskFault.column.code'), dataIndex: 'code', width: 190, render: (code: string) => <span className="task-mono" data-fault={code}>{code}</span> },
      { title: t('taskFault.column.severity'), dataIndex: 'severity', width: 100, render: (s: string) => <SeverityTag severity={s} /> },
      {
        title: t('taskFault.column.title'),
        dataIndex: 'title',
        width: 320,
        render: (_, g) => {
          const fault = faultLabel(g.code, locale);
          return (
            <div data-known={fault.known}>
              <div>{fault.title}</div>
              <div className="task-fault-fix">{fault.known ? t('taskFault.fix', { fix: fault.fix }) : t('taskFault.noFix')}</div>
            </div>
          );
        },
      },
      { title: t('taskFault.column.count'), dataIndex: 'count', width: 80, align: 'right' },
      { title: t('taskFault.column.devices'), dataIndex: 'devices', width: 90, align: 'right' },
      { title: t('taskFault.column.byModel'), dataIndex: 'byModel', width: 170, render: (m: Group['byModel']) => <Counts items={m.map((x) => ({ key: x.model, count: x.count }))} /> },
      { title: t('taskFault.column.byFirmware'), dataIndex: 'byFirmware', width: 190, render: (f: Group['byFirmware']) => <Counts items={f.map((x) => ({ key: x.firmware, count: x.count }))} /> },
      { title: t('taskFault.column.lastAt'), dataIndex: 'lastAt', width: 170, render: (at: string) => dateTime(at) },
      {
        title: t('taskFault.column.links'),
        dataIndex: 'links',
        width: 210,
        fixed: 'right',
        render: (_, g) => (
          <div className="task-links">
            <Link to={`/device/list?sn=${encodeURIComponent(g.lastSn)}`} aria-label={t('taskFault.link.deviceOf', { sn: g.lastSn })}>
              {t('taskFault.link.device')}
            </Link>
            <Link to={`/device/device-exception-event?sn=${encodeURIComponent(g.lastSn)}&code=${encodeURIComponent(g.code)}`} aria-label={t('taskFault.link.eventsOf', { sn: g.lastSn, code: g.code })}>
              {t('taskFault.link.events')}
            </Link>
            <Link to={`/task/task-record?faultCode=${encodeURIComponent(g.code)}`} aria-label={t('taskFault.link.runsOf', { code: g.code })}>
              {t('taskFault.link.runs')}
            </Link>
            <Link to={`/task/task-record?faultCode=${encodeURIComponent(g.code)}&id=${g.lastRunId}`} aria-label={t('taskFault.link.runOf', { code: g.code, sn: g.lastSn })}>
              {t('taskFault.link.run')}
            </Link>
          </div>
        ),
      },
    ],
    [t, locale, dateTime],
  );
  const empty = !!data && data.list.length === 0;
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card
        title={t('menu.task.fault')}
        extra={data && <Typography.Text type="secondary" data-testid="task-fault-total">{t('taskFault.total', { total: data.total.toLocaleString(locale) })}</Typography.Text>}
      >
        <Filters onChange={setFilters} />
        <Typography.Title heading={6}>{t('taskFault.trend')}</Typography.Title>
        <QueryState loading={report.isLoading} error={report.isError && !data} empty={empty} emptyText={t('taskFault.empty')} onRetry={() => void report.refetch()} testId="task-fault-trend">
          <Suspense fallback={<Spin style={{ display: 'block', margin: '48px auto' }} />}>{data && <FaultTrendChart report={data} />}</Suspense>
        </QueryState>
      </Card>
      <Card title={t('taskFault.groups')}>
        <QueryState loading={report.isLoading} error={report.isError && !data} empty={empty} emptyText={t('taskFault.empty')} onRetry={() => void report.refetch()} testId="task-fault-groups">
          <Table rowKey="code" columns={columns} data={data?.list ?? []} border={false} scroll={{ x: 1500 }} pagination={false} data-testid="task-fault-table" />
        </QueryState>
      </Card>
    </Space>
  );
}
