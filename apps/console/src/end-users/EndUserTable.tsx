import { Button, Table, Tag, Typography, type TableColumnProps } from '@arco-design/web-react';
import type { AppUserStatus, EndUser, EndUserPage } from '@mowerline/contract';
import { useLocaleStore, useT } from '../locale/i18n.ts';
import { useFormatTime } from '../locale/format.ts';
import { countryName, statusColor } from './labels.ts';

interface Props {
  data: EndUserPage | undefined;
  loading: boolean;
  error: boolean;
  page: number;
  pageSize: number;
  onPage(page: number, pageSize: number): void;
  onOpen(id: number): void;
}

export function StatusTag({ status }: { status: AppUserStatus }) {
  const t = useT();
  return (
    <Tag color={statusColor[status]} data-status={status}>
      {t(`endUser.status.${status}`)}
    </Tag>
  );
}

/** The user list: newest first, paged on the server; the e-mail opens the detail drawer. */
export function EndUserTable({ data, loading, error, page, pageSize, onPage, onOpen }: Props) {
  const t = useT();
  const locale = useLocaleStore((s) => s.locale);
  const { dateTime } = useFormatTime();
  const columns: TableColumnProps<EndUser>[] = [
    {
      title: t('endUser.field.email'),
      dataIndex: 'email',
      width: 240,
      fixed: 'left',
      ellipsis: true,
      render: (email: string, row) => (
        <Button type="text" size="mini" onClick={() => onOpen(row.id)} style={{ padding: 0, maxWidth: '100%' }} data-user-id={row.id}>
          <Typography.Text ellipsis style={{ color: 'rgb(var(--ml-primary-text))', margin: 0 }}>
            {email}
          </Typography.Text>
        </Button>
      ),
    },
    { title: t('endUser.field.name'), dataIndex: 'name', width: 160, ellipsis: true },
    { title: t('endUser.field.status'), dataIndex: 'status', width: 120, render: (s: AppUserStatus) => <StatusTag status={s} /> },
    { title: t('endUser.field.country'), dataIndex: 'country', width: 150, ellipsis: true, render: (c: string) => (c ? <span title={c}>{countryName(c, locale)}</span> : '-') },
    { title: t('endUser.field.city'), dataIndex: 'city', width: 140, ellipsis: true, render: (c: string) => c || '-' },
    { title: t('endUser.field.devices'), dataIndex: 'deviceCount', width: 90, align: 'right' },
    { title: t('endUser.field.registeredAt'), dataIndex: 'createdAt', width: 180, render: (at: string) => dateTime(at) },
    { title: t('endUser.field.lastLogin'), dataIndex: 'lastLoginAt', width: 180, render: (at: string | null) => dateTime(at) },
    {
      title: t('endUser.field.actions'),
      dataIndex: 'actions',
      width: 110,
      fixed: 'right',
      render: (_, row) => (
        <Button type="text" size="small" onClick={() => onOpen(row.id)} aria-label={t('endUser.do.detailOf', { email: row.email })}>
          {t('endUser.do.detail')}
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
      scroll={{ x: 1370 }}
      noDataElement={
        <div className="devices-empty" data-testid={error ? 'end-user-error' : 'end-user-empty'}>
          {t(error ? 'endUser.loadFailed' : 'endUser.empty')}
        </div>
      }
      pagination={{
        current: page,
        pageSize,
        total,
        sizeCanChange: true,
        sizeOptions: [10, 20, 50, 100],
        showTotal: () => t(data?.totalExact === false ? 'endUser.totalAbout' : 'endUser.total', { total: total.toLocaleString() }),
      }}
      onChange={(pagination) => onPage(pagination.current ?? 1, pagination.pageSize ?? pageSize)}
    />
  );
}
