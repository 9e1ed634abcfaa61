import { Table, Tag, Tooltip, Typography, type TableColumnProps } from '@arco-design/web-react';
import { roleDescriptions, type Page, type StaffUser } from '@mowerline/contract';
import { useLocaleStore, useT } from '../locale/i18n.ts';
import { useFormatTime } from '../locale/format.ts';
import { useSettings } from '../settings/settings.store.ts';
import { Permission } from '../permission/Permission.tsx';
import { StaffRowActions } from './StaffRowActions.tsx';
import { roleColor, statusColor } from './staff-labels.ts';

interface Props {
  data: Page<StaffUser> | undefined;
  loading: boolean;
  page: number;
  pageSize: number;
  onPage(page: number, pageSize: number): void;
  onEdit(row: StaffUser): void;
  onResetPassword(row: StaffUser): void;
}

export function StaffTable({ data, loading, page, pageSize, onPage, onEdit, onResetPassword }: Props) {
  const t = useT();
  const locale = useLocaleStore((s) => s.locale);
  const { dateTime } = useFormatTime();
  // On a phone a pinned column would cover the row; it scrolls with the rest instead.
  const pinned = useSettings((s) => s.device !== 'mobile');
  const columns: TableColumnProps<StaffUser>[] = [
    {
      title: t('staff.column.user'),
      dataIndex: 'username',
      width: 200,
      render: (_, row) => (
        <div data-username={row.username}>
          <div>{row.name}</div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {row.username}
          </Typography.Text>
        </div>
      ),
    },
    { title: t('staff.column.email'), dataIndex: 'email', width: 220, ellipsis: true, render: (email: string) => email || '-' },
    { title: t('staff.column.phone'), dataIndex: 'phone', width: 140, render: (phone: string) => phone || '-' },
    {
      title: t('staff.column.role'),
      dataIndex: 'role',
      width: 120,
      render: (_, row) => <Tag color={roleColor[row.role]}>{roleDescriptions[row.role].name[locale]}</Tag>,
    },
    {
      title: t('staff.column.status'),
      dataIndex: 'status',
      width: 110,
      render: (_, row) => {
        const tag = <Tag color={statusColor[row.status]}>{t(`staff.status.${row.status}`)}</Tag>;
        // A pending request carries the reason the applicant gave.
        return row.status === 'pending' && row.requestReason ? <Tooltip content={row.requestReason}>{tag}</Tooltip> : tag;
      },
    },
    { title: t('staff.column.createdAt'), dataIndex: 'createdAt', width: 180, render: (at: string) => dateTime(at) },
    { title: t('staff.column.lastLoginAt'), dataIndex: 'lastLoginAt', width: 180, render: (at: string | null) => dateTime(at) },
    {
      title: t('staff.column.actions'),
      dataIndex: 'actions',
      // Edit · Reset password · Disable · Sessions, in English the longest.
      width: 390,
      fixed: pinned ? 'right' : undefined,
      render: (_, row) => (
        <Permission roles={['admin']}>
          <StaffRowActions row={row} onEdit={onEdit} onResetPassword={onResetPassword} />
        </Permission>
      ),
    },
  ];
  return (
    <Table
      rowKey="id"
      columns={columns}
      data={data?.list ?? []}
      loading={loading}
      scroll={{ x: 1540 }}
      border={false}
      pagination={{ current: page, pageSize, total: data?.total ?? 0, showTotal: true, sizeCanChange: true, sizeOptions: [10, 20, 50, 100] }}
      onChange={(pagination) => onPage(pagination.current ?? 1, pagination.pageSize ?? pageSize)}
    />
  );
}
