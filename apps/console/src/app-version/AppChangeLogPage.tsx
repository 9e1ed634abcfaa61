import { useState } from 'react';
import { Button, Card, Popconfirm, Select, Space, Switch, Table, Tag, Typography, type TableColumnProps } from '@arco-design/web-react';
import { IconPlus } from '@arco-design/web-react/icon';
import { appPlatforms, permissions, type AppPlatform, type AppVersion } from '@mowerline/contract';
import { useLocaleStore, useT } from '../locale/i18n.ts';
import { usePaging } from '../components/usePaging.ts';
import { useFormatTime } from '../locale/format.ts';
import { Permission } from '../permission/Permission.tsx';
import { usePermission } from '../permission/usePermission.ts';
import { useAppVersions, useUpdateAppVersion, useWithdrawAppVersion } from './app-version.api.ts';
import { AppVersionModal } from './AppVersionModal.tsx';
import '../firmware/firmware.css';

/** Product → app versions (/product/app-change-log): iOS and Android releases and their update policy. */
export default function AppChangeLogPage() {
  const t = useT();
  const locale = useLocaleStore((s) => s.locale);
  const { dateTime } = useFormatTime();
  const { can } = usePermission();
  const [platform, setPlatform] = useState<AppPlatform>();
  const { page, pageSize, setPage, pagination } = usePaging();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<AppVersion>();
  const withdraw = useWithdrawAppVersion();
  const list = useAppVersions(platform, page, pageSize);
  const update = useUpdateAppVersion();
  const writable = can(permissions.appVersionWrite);

  const columns: TableColumnProps<AppVersion>[] = [
    { title: t('appVersion.platform'), dataIndex: 'platform', width: 110, render: (p: AppPlatform) => <Tag color={p === 'ios' ? 'arcoblue' : 'green'}>{p === 'ios' ? 'iOS' : 'Android'}</Tag> },
    {
      title: t('appVersion.version'),
      dataIndex: 'version',
      width: 150,
      render: (v: string, a) => (
        <span data-version={v}>
          <b>{v}</b>
          {a.withdrawnAt && (
            <Tag color="gray" size="small" style={{ marginLeft: 6 }} data-testid="withdrawn">
              {t('appVersion.withdrawn')}
            </Tag>
          )}
        </span>
      ),
    },
    { title: t('appVersion.build'), dataIndex: 'build', width: 100 },
    { title: t('appVersion.changelog'), dataIndex: 'changelogEn', ellipsis: true, tooltip: true, render: (_, v) => (locale === 'en-US' ? v.changelogEn || v.changelogZh : v.changelogZh || v.changelogEn) || '-' },
    { title: t('appVersion.minSupported'), dataIndex: 'minSupportedVersion', width: 150, render: (v: string) => v || '-' },
    {
      title: t('appVersion.forceUpdate'),
      dataIndex: 'forceUpdate',
      width: 120,
      render: (on: boolean, v) =>
        writable && !v.withdrawnAt ? (
          <Popconfirm title={t(on ? 'appVersion.confirm.unforce' : 'appVersion.confirm.force', { version: v.version })} onOk={() => update.mutateAsync({ id: v.id, body: { forceUpdate: !on } })}>
            <Switch size="small" checked={on} aria-label={t('appVersion.forceUpdate')} />
          </Popconfirm>
        ) : (
          <Tag color={on ? 'red' : 'gray'}>{t(on ? 'appVersion.yes' : 'appVersion.no')}</Tag>
        ),
    },
    {
      title: t('appVersion.downloadUrl'),
      dataIndex: 'downloadUrl',
      width: 220,
      ellipsis: true,
      render: (url: string) =>
        url ? (
          <a href={url} target="_blank" rel="noreferrer noopener" title={url}>
            {url}
          </a>
        ) : (
          '-'
        ),
    },
    {
      title: t('appVersion.createdAt'),
      dataIndex: 'createdAt',
      width: 200,
      render: (v: string, a) => (
        <>
          <div>{`${dateTime(v)} · ${a.createdBy}`}</div>
          {a.withdrawnAt && <Typography.Text type="secondary" style={{ fontSize: 12 }}>{t('appVersion.withdrawnBy', { at: dateTime(a.withdrawnAt), by: a.withdrawnBy })}</Typography.Text>}
        </>
      ),
    },
    ...(writable
      ? [
          {
            title: t('appVersion.actions'),
            dataIndex: 'actions',
            // Edit · Withdraw.
            width: 180,
            fixed: 'right' as const,
            render: (_: unknown, v: AppVersion) =>
              v.withdrawnAt ? null : (
                <Space size={0}>
                  <Button type="text" size="small" onClick={() => setEditing(v)}>
                    {t('appVersion.editAction')}
                  </Button>
                  <Popconfirm title={t('appVersion.confirm.withdraw', { version: v.version })} onOk={() => withdraw.mutateAsync(v.id)}>
                    <Button type="text" size="small" status="danger">
                      {t('appVersion.withdraw')}
                    </Button>
                  </Popconfirm>
                </Space>
              ),
          },
        ]
      : []),
  ];

  return (
    <Card>
      <div className="ota-toolbar">
        <Select
          allowClear
          style={{ width: 160 }}
          placeholder={t('appVersion.allPlatforms')}
          value={platform}
          onChange={(p?: AppPlatform) => {
            setPlatform(p);
            setPage(1);
          }}
          options={appPlatforms.map((p) => ({ value: p, label: p === 'ios' ? 'iOS' : 'Android' }))}
        />
        <Permission roles={permissions.appVersionWrite}>
          <Button type="primary" icon={<IconPlus />} onClick={() => setCreating(true)}>
            {t('appVersion.create')}
          </Button>
        </Permission>
      </div>
      <Table
        rowKey="id"
        columns={columns}
        data={list.data?.list ?? []}
        loading={list.isLoading}
        border={false}
        scroll={{ x: 1430 }}
        noDataElement={<div style={{ padding: 24 }}>{t('appVersion.empty')}</div>}
        pagination={pagination(list.data?.total ?? 0)}
      />
      <AppVersionModal visible={creating} onClose={() => setCreating(false)} />
      <AppVersionModal visible={!!editing} editing={editing} onClose={() => setEditing(undefined)} />
    </Card>
  );
}
