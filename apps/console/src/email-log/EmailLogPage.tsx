import { useState } from 'react';
import { Card, Table, Tag, Tooltip, type TableColumnProps } from '@arco-design/web-react';
import type { EmailLog } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { useFormatTime } from '../locale/format.ts';
import { useEmailLogs } from './email-log.api.ts';
import { EmailLogFilters, type EmailLogFilterValues } from './EmailLogFilters.tsx';

const statusColor = { sent: 'green', failed: 'red', not_sent: 'gray' } as const;

/** System → e-mail log: what was mailed to whom, and why a mail did not go out. */
export default function EmailLogPage() {
  const t = useT();
  const { dateTime } = useFormatTime();
  const [filters, setFilters] = useState<EmailLogFilterValues>({});
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(20);
  const logs = useEmailLogs({ page, pageSize, ...filters });

  const columns: TableColumnProps<EmailLog>[] = [
    { title: t('emailLog.column.createdAt'), dataIndex: 'createdAt', width: 180, render: (at: string) => dateTime(at) },
    { title: t('emailLog.column.to'), dataIndex: 'to', width: 220, ellipsis: true, tooltip: true },
    { title: t('emailLog.column.subject'), dataIndex: 'subject', width: 280, ellipsis: true, tooltip: true },
    {
      title: t('emailLog.column.template'),
      dataIndex: 'template',
      width: 160,
      render: (template: string) => <Tooltip content={template}>{t(`emailLog.template.${template}`)}</Tooltip>,
    },
    {
      title: t('emailLog.column.status'),
      dataIndex: 'status',
      width: 110,
      render: (_, row) => (
        <Tag color={statusColor[row.status]} data-status={row.status}>
          {t(`emailLog.status.${row.status}`)}
        </Tag>
      ),
    },
    { title: t('emailLog.column.sentAt'), dataIndex: 'sentAt', width: 180, render: (at: string | null) => dateTime(at) },
    { title: t('emailLog.column.error'), dataIndex: 'error', width: 260, ellipsis: true, tooltip: true, render: (error: string) => error || '-' },
  ];

  return (
    <Card bordered={false}>
      <div style={{ marginBottom: 16 }}>
        <EmailLogFilters
          value={filters}
          onChange={(next) => {
            setFilters(next);
            setPage(1);
          }}
        />
      </div>
      <Table
        rowKey="id"
        columns={columns}
        data={logs.data?.list ?? []}
        loading={logs.isFetching}
        scroll={{ x: 1400 }}
        border={false}
        pagination={{ current: page, pageSize, total: logs.data?.total ?? 0, showTotal: true, sizeCanChange: true, sizeOptions: [10, 20, 50, 100] }}
        onChange={(pagination) => {
          const nextSize = pagination.pageSize ?? pageSize;
          setPage(nextSize === pageSize ? (pagination.current ?? 1) : 1);
          setPageSize(nextSize);
        }}
      />
    </Card>
  );
}
