import { Button, Table, type TableColumnProps } from '@arco-design/web-react';
import { NamedProgress } from '../components/a11y.tsx';
import type { RunPage, TaskRun } from '@mowerline/contract';
import { useLocaleStore, useT } from '../locale/i18n.ts';
import { useFormatTime } from '../locale/format.ts';
import { duration, num } from './labels.ts';
import { FaultCode, RunStateTag, TriggerTag } from './TaskCells.tsx';

interface Props {
  data: RunPage | undefined;
  loading: boolean;
  error: boolean;
  page: number;
  pageSize: number;
  onPage(page: number, pageSize: number): void;
  onOpen(id: number): void;
}

/** Runs, newest first, paged on the server; the start time opens the detail drawer. */
export function RunTable({ data, loading, error, page, pageSize, onPage, onOpen }: Props) {
  const t = useT();
  const locale = useLocaleStore((s) => s.locale);
  const { dateTime } = useFormatTime();
  const columns: TableColumnProps<TaskRun>[] = [
    {
      title: t('task.field.startedAt'),
      dataIndex: 'startedAt',
      width: 180,
      fixed: 'left',
      render: (at: string, row) => (
        <Button type="text" size="mini" style={{ padding: 0 }} onClick={() => onOpen(row.id)} data-run-id={row.id}>
          {dateTime(at)}
        </Button>
      ),
    },
    { title: t('task.field.sn'), dataIndex: 'sn', width: 150, render: (sn: string) => <span className="task-mono">{sn}</span> },
    { title: t('task.field.owner'), dataIndex: 'ownerEmail', width: 190, ellipsis: true, render: (e: string) => e || '-' },
    { title: t('task.field.model'), dataIndex: 'modelCode', width: 80 },
    { title: t('taskRun.field.trigger'), dataIndex: 'trigger', width: 100, render: (_, row) => <TriggerTag trigger={row.trigger} /> },
    { title: t('taskRun.field.result'), dataIndex: 'result', width: 120, render: (_, row) => <RunStateTag run={row} /> },
    { title: t('taskRun.field.fault'), dataIndex: 'faultCode', width: 170, render: (code: string | null) => <FaultCode code={code} /> },
    { title: t('taskRun.field.schedule'), dataIndex: 'scheduleName', width: 130, ellipsis: true, render: (n: string | null) => n ?? '-' },
    { title: t('taskRun.field.progress'), dataIndex: 'progressPercent', width: 120, render: (p: number) => <NamedProgress label={t('taskRun.field.progress')} percent={Math.round(p)} size="small" width={80} /> },
    { title: t('taskRun.field.area'), dataIndex: 'areaM2', width: 110, align: 'right', render: (a: number) => t('task.unit.m2', { value: num(a, locale, 0) }) },
    { title: t('taskRun.field.duration'), dataIndex: 'durationS', width: 110, align: 'right', render: (s: number) => duration(s) },
    { title: t('taskRun.field.pauses'), dataIndex: 'pauses', width: 80, align: 'right' },
    { title: t('task.field.endedAt'), dataIndex: 'endedAt', width: 180, render: (at: string | null) => dateTime(at) },
    {
      title: t('task.field.actions'),
      dataIndex: 'actions',
      width: 110,
      fixed: 'right',
      render: (_, row) => (
        <Button type="text" size="small" onClick={() => onOpen(row.id)} aria-label={t('taskRun.do.detailOf', { runId: row.runId, sn: row.sn })}>
          {t('taskRun.do.detail')}
        </Button>
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
      scroll={{ x: 1820 }}
      noDataElement={
        <div className="devices-empty" data-testid={error ? 'task-run-error' : 'task-run-empty'}>
          {t(error ? 'task.loadFailed' : 'taskRun.empty')}
        </div>
      }
      pagination={{
        current: page,
        pageSize,
        total,
        sizeCanChange: true,
        sizeOptions: [10, 20, 50, 100],
        showTotal: () => t(data?.totalExact === false ? 'taskRun.totalAbout' : 'taskRun.total', { total: total.toLocaleString() }),
      }}
      onChange={(pagination) => onPage(pagination.current ?? 1, pagination.pageSize ?? pageSize)}
    />
  );
}
