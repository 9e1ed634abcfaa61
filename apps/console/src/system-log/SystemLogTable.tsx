import { Table, Tag, Tooltip, Typography, type TableColumnProps } from '@arco-design/web-react';
import { namedExpandIcon } from '../components/a11y.tsx';
import type { Page, SystemLog } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { useFormatTime } from '../locale/format.ts';
import { useSettings } from '../settings/settings.store.ts';
import { actionLabel, actorLabel, targetLabel } from './audit-action.ts';

interface Props {
  data: Page<SystemLog> | undefined;
  loading: boolean;
  page: number;
  pageSize: number;
  onPage(page: number, pageSize: number): void;
}

export const resultColor = { success: 'green', failure: 'red' } as const;

function Detail({ row }: { row: SystemLog }) {
  return (
    <pre data-testid="log-detail" style={{ margin: 0, fontSize: 12, whiteSpace: 'pre-wrap', wordBreak: 'break-all', color: 'var(--color-text-2)' }}>
      {JSON.stringify(row.detail, null, 2)}
    </pre>
  );
}

export function SystemLogTable({ data, loading, page, pageSize, onPage }: Props) {
  const t = useT();
  const { dateTime } = useFormatTime();
  // On a phone a pinned column would cover the row; it scrolls with the rest instead.
  const pinned = useSettings((s) => s.device !== 'mobile');
  const columns: TableColumnProps<SystemLog>[] = [
    { title: t('systemLog.column.at'), dataIndex: 'at', width: 180, render: (at: string) => dateTime(at) },
    { title: t('systemLog.column.actor'), dataIndex: 'actorName', width: 140, ellipsis: true, render: (_: string, log) => <span data-actor={log.actorName}>{actorLabel(t, log)}</span> },
    {
      title: t('systemLog.column.action'),
      dataIndex: 'action',
      width: 200,
      render: (action: string) => (
        <Tooltip content={action} position="tl">
          <span data-action={action}>{actionLabel(t, action)}</span>
        </Tooltip>
      ),
    },
    {
      title: t('systemLog.column.target'),
      dataIndex: 'targetName',
      width: 220,
      render: (_, row) =>
        row.targetType ? (
          <span>
            <Typography.Text type="secondary">{targetLabel(t, row.targetType)}</Typography.Text> {row.targetName || row.targetId}
          </span>
        ) : (
          '-'
        ),
    },
    { title: t('systemLog.column.ip'), dataIndex: 'ip', width: 140 },
    { title: t('systemLog.column.userAgent'), dataIndex: 'userAgent', width: 240, ellipsis: true, tooltip: true },
    {
      title: t('systemLog.column.result'),
      dataIndex: 'result',
      width: 100,
      fixed: pinned ? 'right' : undefined,
      render: (_, row) => <Tag color={resultColor[row.result]}>{t(`systemLog.result.${row.result}`)}</Tag>,
    },
  ];
  return (
    <Table
      rowKey="id"
      columns={columns}
      data={data?.list ?? []}
      loading={loading}
      scroll={{ x: 1280 }}
      border={false}
      expandedRowRender={(row) => (Object.keys(row.detail).length > 0 ? <Detail row={row} /> : null)}
      expandProps={{ rowExpandable: (row) => Object.keys(row.detail).length > 0, width: 48, icon: namedExpandIcon((open) => t(open ? 'common.collapseRow' : 'common.expandRow')) }}
      pagination={{ current: page, pageSize, total: data?.total ?? 0, showTotal: true, sizeCanChange: true, sizeOptions: [10, 20, 50, 100] }}
      onChange={(pagination) => onPage(pagination.current ?? 1, pagination.pageSize ?? pageSize)}
    />
  );
}
