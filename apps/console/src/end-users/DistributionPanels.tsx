import type { ReactNode } from 'react';
import { Alert, Button, Spin, Table, Typography, type TableColumnProps } from '@arco-design/web-react';
import { useT } from '../locale/i18n.ts';
import { percent } from './labels.ts';

/** Loading, error (with retry), empty, or the content: what every widget of the page shows. */
export function QueryState({ loading, error, empty, onRetry, testId, children }: { loading: boolean; error: boolean; empty: boolean; onRetry(): void; testId: string; children: ReactNode }) {
  const t = useT();
  if (loading) return <Spin style={{ display: 'block', margin: '48px auto' }} />;
  if (error)
    return (
      <Alert
        type="error"
        data-testid={`${testId}-error`}
        content={t('endUser.loadFailed')}
        action={
          <Button size="mini" onClick={onRetry}>
            {t('endUser.retry')}
          </Button>
        }
      />
    );
  if (empty)
    return (
      <div className="devices-empty" data-testid={`${testId}-empty`}>
        {t('userDist.empty')}
      </div>
    );
  return <>{children}</>;
}

export interface RankRow {
  key: string;
  label: string;
  /** Secondary text (a city's country). */
  sub?: string;
  count: number;
  share: number;
}

/** Rank, name, users and share; a country's name is a button that selects it. */
export function RankTable({ rows, nameTitle, selected, onSelect, other, testId }: { rows: RankRow[]; nameTitle: string; selected?: string; onSelect?(key: string): void; other: number; testId: string }) {
  const t = useT();
  const columns: TableColumnProps<RankRow>[] = [
    { title: '#', dataIndex: 'rank', width: 56, render: (_, __, index) => index + 1 },
    {
      title: nameTitle,
      dataIndex: 'label',
      render: (label: string, row) => {
        const text = (
          <span>
            {label}
            {row.sub && <Typography.Text type="secondary"> · {row.sub}</Typography.Text>}
          </span>
        );
        return onSelect ? (
          <Button type="text" size="mini" style={{ padding: 0 }} onClick={() => onSelect(row.key)} aria-pressed={row.key === selected} data-country={row.key}>
            {text}
          </Button>
        ) : (
          text
        );
      },
    },
    { title: t('userDist.column.users'), dataIndex: 'count', width: 110, align: 'right', render: (n: number) => n.toLocaleString() },
    { title: t('userDist.column.share'), dataIndex: 'share', width: 90, align: 'right', render: (s: number) => percent(s) },
  ];
  return (
    <>
      <Table
        rowKey="key"
        size="small"
        columns={columns}
        data={rows}
        border={false}
        data-testid={testId}
        rowClassName={(row) => (row.key === selected ? 'arco-table-tr-selected user-dist-selected' : '')}
        pagination={rows.length > 10 ? { pageSize: 10, size: 'mini', simple: true } : false}
      />
      {other > 0 && (
        <Typography.Text type="secondary" style={{ display: 'block', marginTop: 8, fontSize: 12 }}>
          {t('userDist.other', { count: other.toLocaleString() })}
        </Typography.Text>
      )}
    </>
  );
}
