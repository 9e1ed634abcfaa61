import { Table, Tag, type TableColumnProps } from '@arco-design/web-react';
import type { RoleInfo } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { useRoles } from './staff.api.ts';
import { roleColor } from './staff-labels.ts';

/** The roles with what each may do and how many accounts hold it (pending requests not counted). */
export function RoleList() {
  const t = useT();
  const roles = useRoles();
  const columns: TableColumnProps<RoleInfo>[] = [
    { title: t('staff.role.name'), dataIndex: 'name', width: 180, render: (name, row) => <Tag color={roleColor[row.role]}>{name}</Tag> },
    { title: t('staff.role.key'), dataIndex: 'role', width: 120, render: (role: string) => <code>{role}</code> },
    { title: t('staff.role.description'), dataIndex: 'description' },
    { title: t('staff.role.members'), dataIndex: 'members', width: 120, align: 'right' },
  ];
  return (
    <Table
      rowKey="role"
      columns={columns}
      data={roles.data ?? []}
      loading={roles.isFetching}
      pagination={false}
      scroll={{ x: 720 }}
      border={false}
    />
  );
}
