import { Alert, Button, Descriptions, Drawer, Skeleton, Space, Table, Tag, type TableColumnProps } from '@arco-design/web-react';
import { Link } from 'react-router';
import type { EndUserDetail, UserLog } from '@mowerline/contract';
import { LastSeen, OnlineStatus, StateTag } from '../devices/DeviceCells.tsx';
import { useLocaleStore, useT } from '../locale/i18n.ts';
import { useFormatTime } from '../locale/format.ts';
import { useEndUserDetail } from './end-users.api.ts';
import { EndUserActions } from './EndUserActions.tsx';
import { StatusTag } from './EndUserTable.tsx';
import { countryName, logActionLabel, resultColor } from './labels.ts';

type Device = EndUserDetail['devices'][number];

function Profile({ user }: { user: EndUserDetail }) {
  const t = useT();
  const locale = useLocaleStore((s) => s.locale);
  const { dateTime } = useFormatTime();
  const dash = (v: string) => v || '-';
  return (
    <Descriptions
      column={2}
      size="small"
      labelStyle={{ width: 120 }}
      data={[
        { label: t('endUser.field.email'), value: user.email },
        { label: t('endUser.field.name'), value: dash(user.name) },
        { label: t('endUser.field.status'), value: <StatusTag status={user.status} /> },
        { label: t('endUser.field.phone'), value: dash(user.phone) },
        { label: t('endUser.field.country'), value: user.country ? `${countryName(user.country, locale)} (${user.country})` : '-' },
        { label: t('endUser.field.city'), value: dash(user.city) },
        { label: t('endUser.field.home'), value: user.home ? `${user.home.lat.toFixed(4)}, ${user.home.lng.toFixed(4)}` : '-' },
        { label: t('endUser.field.locale'), value: user.locale },
        { label: t('endUser.field.timeZone'), value: user.timeZone },
        { label: t('endUser.field.registeredAt'), value: dateTime(user.createdAt) },
        { label: t('endUser.field.lastLogin'), value: dateTime(user.lastLoginAt) },
        ...(user.deletionAt ? [{ label: t('endUser.field.deletionAt'), value: dateTime(user.deletionAt) }] : []),
        ...(user.disabledReason ? [{ label: t('endUser.field.disabledReason'), value: user.disabledReason, span: 2 }] : []),
      ]}
    />
  );
}

function Devices({ devices, onLeave }: { devices: Device[]; onLeave(): void }) {
  const t = useT();
  const columns: TableColumnProps<Device>[] = [
    {
      title: t('endUser.device.sn'),
      dataIndex: 'sn',
      width: 170,
      render: (sn: string) => (
        <Link to={`/device/list?sn=${encodeURIComponent(sn)}`} onClick={onLeave} className="end-user-mono" aria-label={t('endUser.device.open', { sn })}>
          {sn}
        </Link>
      ),
    },
    { title: t('endUser.device.model'), dataIndex: 'modelCode', width: 90 },
    { title: t('endUser.device.role'), dataIndex: 'role', width: 90, render: (r: Device['role']) => <Tag color={r === 'owner' ? 'arcoblue' : 'purple'}>{t(`endUser.role.${r}`)}</Tag> },
    { title: t('endUser.device.online'), dataIndex: 'online', width: 100, render: (online: boolean) => <OnlineStatus online={online} /> },
    { title: t('endUser.device.state'), dataIndex: 'state', width: 100, render: (_, d) => <StateTag state={d.state} /> },
    { title: t('endUser.device.lastSeen'), dataIndex: 'lastSeenAt', width: 120, render: (at: string | null) => <LastSeen at={at} /> },
    {
      title: t('endUser.device.others'),
      dataIndex: 'others',
      render: (others: string[], d) => (others.length === 0 ? '-' : `${t(d.role === 'owner' ? 'endUser.device.sharedWith' : 'endUser.device.owner')}: ${others.join(', ')}`),
    },
  ];
  return (
    <Table
      rowKey="sn"
      size="small"
      columns={columns}
      data={devices}
      pagination={false}
      border={false}
      scroll={{ x: 800 }}
      data-testid="end-user-devices"
      noDataElement={<div className="devices-empty">{t('endUser.device.none')}</div>}
    />
  );
}

function ActivityTable({ rows }: { rows: UserLog[] }) {
  const t = useT();
  const { dateTime } = useFormatTime();
  const columns: TableColumnProps<UserLog>[] = [
    { title: t('userLog.column.at'), dataIndex: 'at', width: 170, render: (at: string) => dateTime(at) },
    { title: t('userLog.column.action'), dataIndex: 'action', width: 150, render: (a: string) => <span data-action={a}>{logActionLabel(t, a)}</span> },
    { title: t('userLog.column.result'), dataIndex: 'result', width: 90, render: (r: UserLog['result']) => <Tag color={resultColor[r]}>{t(`userLog.result.${r}`)}</Tag> },
    { title: t('userLog.column.sn'), dataIndex: 'sn', width: 150, render: (sn: string) => (sn ? <span className="end-user-mono">{sn}</span> : '-') },
    { title: t('userLog.column.ip'), dataIndex: 'ip', width: 130, render: (ip: string) => ip || '-' },
  ];
  return (
    <Table
      rowKey="id"
      size="small"
      columns={columns}
      data={rows}
      pagination={false}
      border={false}
      scroll={{ x: 690 }}
      data-testid="end-user-activity"
      noDataElement={<div className="devices-empty">{t('userLog.empty')}</div>}
    />
  );
}

/** One app user: profile, support actions, mowers with their online state, latest activity. */
export function EndUserDrawer({ id, onClose }: { id: number | undefined; onClose(): void }) {
  const t = useT();
  const detail = useEndUserDetail(id);
  const user = detail.data?.id === id ? detail.data : undefined;
  return (
    <Drawer
      width={760}
      visible={id !== undefined}
      onCancel={onClose}
      footer={null}
      unmountOnExit
      className="end-user-drawer"
      title={
        <Space>
          <span>{user?.email ?? t('endUser.detail')}</span>
          {user && <StatusTag status={user.status} />}
        </Space>
      }
    >
      {detail.isError && !user ? (
        <Alert type="error" content={t('endUser.loadFailed')} action={<Button size="mini" onClick={() => void detail.refetch()}>{t('endUser.retry')}</Button>} />
      ) : !user ? (
        <Skeleton text={{ rows: 8 }} animation />
      ) : (
        <div data-testid="end-user-detail">
          <EndUserActions user={user} />
          <div className="device-detail-section">{t('endUser.section.profile')}</div>
          <Profile user={user} />
          <div className="device-detail-section">{t('endUser.section.devices', { count: user.devices.length })}</div>
          <Devices devices={user.devices} onLeave={onClose} />
          <div className="device-detail-section end-user-section-row">
            <span>{t('endUser.section.activity')}</span>
            <span>
              <Link to={`/operation/user-log?userId=${user.id}`} onClick={onClose}>
                {t('endUser.activity.all')}
              </Link>
              {' · '}
              <Link to={`/ticket/list?userId=${user.id}`} onClick={onClose}>
                {t('ticket.ofUser')}
              </Link>
            </span>
          </div>
          <ActivityTable rows={user.activity} />
        </div>
      )}
    </Drawer>
  );
}
