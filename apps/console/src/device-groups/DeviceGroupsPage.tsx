import { useState } from 'react';
import { Button, Card, Input, Message, Popconfirm, Space, Table, Tag, type TableColumnProps } from '@arco-design/web-react';
import { IconPlus } from '@arco-design/web-react/icon';
import { useNavigate } from 'react-router';
import { permissions, type DeviceGroup, type GroupFilter } from '@mowerline/contract';
import { useT, type Translate } from '../locale/i18n.ts';
import { Permission } from '../permission/Permission.tsx';
import { usePermission } from '../permission/usePermission.ts';
import { useDeleteGroup, useDeviceGroups } from './device-groups.api.ts';
import { GroupFormModal } from './GroupFormModal.tsx';
import { MembersModal } from './MembersModal.tsx';

/** A dynamic group's conditions as one line: `ring = beta · site is set`. */
function describeFilter(t: Translate, f: GroupFilter | null): string {
  if (!f) return '-';
  if (f.all) return t('groups.all');
  const parts = (f.tags ?? []).map((c) => `${c.key} ${t(`groups.op.${c.op}`)}${c.op === 'exists' ? '' : ` ${c.op === 'in' ? (c.values ?? []).join(', ') : (c.value ?? '')}`}`);
  for (const key of ['region', 'firmware', 'owner', 'sn'] as const) if (f[key]) parts.push(`${key} = ${f[key]}`);
  return parts.join(' · ') || '-';
}

/** Device → groups: static lists and saved filters, with member counts; admins create, change and delete them. */
export default function DeviceGroupsPage() {
  const t = useT();
  const navigate = useNavigate();
  const { can } = usePermission();
  const [name, setName] = useState('');
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<DeviceGroup | undefined>();
  const groups = useDeviceGroups({ name: name || undefined, page, pageSize: 20 });
  const remove = useDeleteGroup();
  const columns: TableColumnProps<DeviceGroup>[] = [
    { title: t('groups.field.name'), dataIndex: 'name', width: 200 },
    { title: t('groups.field.kind'), dataIndex: 'kind', width: 100, render: (k: DeviceGroup['kind']) => <Tag color={k === 'dynamic' ? 'arcoblue' : 'gray'}>{t(`groups.kind.${k}`)}</Tag> },
    { title: t('groups.field.members'), dataIndex: 'memberCount', width: 110, render: (n: number, g) => (g.memberCountExact ? n.toLocaleString() : t('groups.membersAbout', { count: n.toLocaleString() })) },
    { title: t('groups.field.filter'), dataIndex: 'filter', ellipsis: true, render: (f: GroupFilter | null) => describeFilter(t, f) },
    { title: t('groups.field.description'), dataIndex: 'description', ellipsis: true, render: (d: string) => d || '-' },
    { title: t('groups.field.createdBy'), dataIndex: 'createdBy', width: 120 },
    {
      title: t('groups.field.actions'),
      dataIndex: 'actions',
      width: 240,
      fixed: 'right',
      render: (_, g) => (
        <Space size={4}>
          <Button type="text" size="small" onClick={() => navigate(`/device/list?groupId=${g.id}`)}>
            {t('groups.action.devices')}
          </Button>
          {can(permissions.deviceGroupsWrite) && g.kind === 'static' && (
            <Button type="text" size="small" onClick={() => setEditing(g)}>
              {t('groups.action.members')}
            </Button>
          )}
          {can(permissions.deviceGroupsWrite) && (
            <Popconfirm
              title={t('groups.delete.confirm', { name: g.name })}
              onOk={() => remove.mutateAsync(g.id).then(() => Message.success(t('groups.deleted')))}
            >
              <Button type="text" size="small" status="danger">
                {t('groups.action.delete')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];
  return (
    <Card
      title={t('groups.title')}
      extra={
        <Space>
          <Input.Search allowClear aria-label={t('groups.search')} placeholder={t('groups.search')} maxLength={100} onSearch={(v) => (setName(v.trim()), setPage(1))} style={{ width: 220 }} />
          <Permission roles={permissions.deviceGroupsWrite}>
            <Button type="primary" icon={<IconPlus />} onClick={() => setCreating(true)}>
              {t('groups.create')}
            </Button>
          </Permission>
        </Space>
      }
    >
      <Table
        rowKey="id"
        columns={columns}
        data={groups.data?.list ?? []}
        loading={groups.isLoading}
        border={false}
        scroll={{ x: 1100 }}
        noDataElement={<div className="devices-empty">{t('groups.empty')}</div>}
        pagination={{ current: page, pageSize: 20, total: groups.data?.total ?? 0, onChange: setPage }}
      />
      <GroupFormModal visible={creating} onClose={() => setCreating(false)} />
      <MembersModal group={editing} onClose={() => setEditing(undefined)} />
    </Card>
  );
}
