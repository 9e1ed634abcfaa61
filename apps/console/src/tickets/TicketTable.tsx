import { Table, Tooltip, Typography, type TableColumnProps } from '@arco-design/web-react';
import { Link } from 'react-router';
import type { TicketPage, TicketSummary } from '@mowerline/contract';
import { rowCheckboxLabel } from '../components/a11y.tsx';
import { useT } from '../locale/i18n.ts';
import { useFormatTime } from '../locale/format.ts';
import { ticketNumber } from './labels.ts';
import { SlaCountdown } from './SlaCountdown.tsx';
import { TicketPriorityTag, TicketStatusTag } from './TicketTags.tsx';

interface Props {
  data: TicketPage | undefined;
  loading: boolean;
  error: boolean;
  page: number;
  pageSize: number;
  onPage(page: number, pageSize: number): void;
  selected: number[];
  onSelect(ids: number[]): void;
}

export const detailPath = (id: number) => `/ticket/detail?id=${id}`;

/**
 * The ticket list: latest activity first, paged on the server. Number and title open the detail;
 * the SN opens the mower. Widths hold the longest label of both languages (zh "待客户回复", en
 * "Pending customer") without clipping at 1280 px; the table scrolls sideways below that.
 */
export function TicketTable({ data, loading, error, page, pageSize, onPage, selected, onSelect }: Props) {
  const t = useT();
  const { dateTime, relative } = useFormatTime();
  const columns: TableColumnProps<TicketSummary>[] = [
    {
      title: t('ticket.field.number'),
      dataIndex: 'number',
      width: 96,
      fixed: 'left',
      render: (n: number, row) => (
        <Link to={detailPath(row.id)} className="ticket-mono" data-ticket-number={n} aria-label={t('ticket.do.openNumber', { number: ticketNumber(n) })}>
          {ticketNumber(n)}
        </Link>
      ),
    },
    {
      title: t('ticket.field.title'),
      dataIndex: 'title',
      width: 260,
      ellipsis: true,
      render: (title: string, row) => (
        <Link to={detailPath(row.id)} title={title} className="ticket-title-link">
          {title}
        </Link>
      ),
    },
    {
      title: t('ticket.field.user'),
      dataIndex: 'user',
      width: 180,
      ellipsis: true,
      render: (user: TicketSummary['user']) => <span title={user.email}>{user.name || user.email}</span>,
    },
    {
      title: t('ticket.field.device'),
      dataIndex: 'sn',
      width: 150,
      render: (sn: string | null) =>
        sn ? (
          <Link to={`/device/list?sn=${encodeURIComponent(sn)}`} className="ticket-mono" aria-label={t('ticket.do.openDevice', { sn })}>
            {sn}
          </Link>
        ) : (
          '-'
        ),
    },
    { title: t('ticket.field.status'), dataIndex: 'status', width: 160, render: (s: TicketSummary['status']) => <TicketStatusTag status={s} /> },
    { title: t('ticket.field.priority'), dataIndex: 'priority', width: 100, render: (p: TicketSummary['priority']) => <TicketPriorityTag priority={p} /> },
    {
      title: t('ticket.field.assignee'),
      dataIndex: 'assignee',
      width: 140,
      ellipsis: true,
      render: (a: TicketSummary['assignee']) => (a ? a.name : <Typography.Text type="secondary">{t('ticket.unassigned')}</Typography.Text>),
    },
    { title: t('ticket.field.slaDue'), dataIndex: 'slaResolutionDue', width: 170, render: (_: unknown, row) => <SlaCountdown ticket={row} /> },
    {
      title: t('ticket.field.lastActivity'),
      dataIndex: 'lastActivityAt',
      width: 150,
      render: (at: string) => (
        <Tooltip content={dateTime(at)}>
          <span tabIndex={0}>{relative(at)}</span>
        </Tooltip>
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
      scroll={{ x: 1430 }}
      rowSelection={{
        type: 'checkbox',
        selectedRowKeys: selected,
        onChange: (keys) => onSelect(keys.map(Number)),
        checkboxProps: (row) => rowCheckboxLabel(t('ticket.do.select', { number: ticketNumber(row.number) })),
      }}
      rowClassName={(row) => (row.slaBreached ? 'ticket-row-breached' : '')}
      noDataElement={
        <div className="devices-empty" data-testid={error ? 'ticket-error' : 'ticket-empty'}>
          {t(error ? 'ticket.loadFailed' : 'ticket.empty')}
        </div>
      }
      pagination={{
        current: page,
        pageSize,
        total,
        sizeCanChange: true,
        sizeOptions: [10, 20, 50, 100],
        showTotal: () => t(data?.totalExact === false ? 'ticket.totalAbout' : 'ticket.total', { total: total.toLocaleString() }),
      }}
      onChange={(pagination) => onPage(pagination.current ?? 1, pagination.pageSize ?? pageSize)}
    />
  );
}
