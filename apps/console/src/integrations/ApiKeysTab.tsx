import { useState } from 'react';
import { Button, Empty, Message, Popconfirm, Space, Table, Tag, Typography, type TableColumnProps } from '@arco-design/web-react';
import { IconPlus } from '@arco-design/web-react/icon';
import type { ApiKey } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { useFormatTime } from '../locale/format.ts';
import { usePaging } from '../components/usePaging.ts';
import { useApiKeys, useRevokeApiKey } from './integrations.api.ts';
import { ApiKeyCreateModal } from './ApiKeyCreateModal.tsx';

/** API keys: who may call the API from another system, with what scopes, and when it last did. */
export function ApiKeysTab() {
  const t = useT();
  const { dateTime } = useFormatTime();
  const { page, pageSize, pagination } = usePaging();
  const keys = useApiKeys(page, pageSize);
  const revoke = useRevokeApiKey();
  const [creating, setCreating] = useState(false);

  const columns: TableColumnProps<ApiKey>[] = [
    { title: t('integrations.apiKeys.name'), dataIndex: 'name', width: 180, ellipsis: true, tooltip: true },
    { title: t('integrations.apiKeys.prefix'), dataIndex: 'prefix', width: 150, render: (p: string) => <code>{p}…</code> },
    {
      title: t('integrations.apiKeys.scopes'),
      dataIndex: 'scopes',
      render: (scopes: string[]) => (
        <Space wrap size={4}>
          {scopes.map((s) => (
            <Tag key={s} size="small" color={s.endsWith(':write') ? 'orange' : 'arcoblue'}>
              {s}
            </Tag>
          ))}
        </Space>
      ),
    },
    { title: t('integrations.apiKeys.expiresAt'), dataIndex: 'expiresAt', width: 170, render: (at: string | null) => (at ? dateTime(at) : t('integrations.apiKeys.never')) },
    { title: t('integrations.apiKeys.lastUsed'), dataIndex: 'lastUsedAt', width: 170, render: (at: string | null) => (at ? dateTime(at) : t('integrations.apiKeys.notUsed')) },
    { title: t('integrations.apiKeys.lastUsedIp'), dataIndex: 'lastUsedIp', width: 130, render: (ip: string | null) => ip ?? '-' },
    { title: t('integrations.apiKeys.createdBy'), dataIndex: 'createdBy', width: 120 },
    {
      title: t('integrations.actions'),
      width: 100,
      fixed: 'right',
      render: (_, key) => (
        <Popconfirm
          title={t('integrations.apiKeys.revokeConfirm', { name: key.name })}
          onOk={async () => {
            await revoke.mutateAsync(key.id);
            Message.success(t('integrations.apiKeys.revoked'));
          }}
        >
          <Button type="text" status="danger" size="small">
            {t('integrations.apiKeys.revoke')}
          </Button>
        </Popconfirm>
      ),
    },
  ];

  return (
    <div data-testid="api-keys-tab">
      <Typography.Paragraph type="secondary">{t('integrations.apiKeys.intro')}</Typography.Paragraph>
      <Button type="primary" icon={<IconPlus />} onClick={() => setCreating(true)} style={{ marginBottom: 16 }}>
        {t('integrations.apiKeys.create')}
      </Button>
      <Table
        rowKey="id"
        columns={columns}
        data={keys.data?.list ?? []}
        loading={keys.isFetching}
        scroll={{ x: 1200 }}
        border={false}
        noDataElement={<Empty description={t('integrations.apiKeys.empty')} />}
        pagination={pagination(keys.data?.total ?? 0)}
      />
      <ApiKeyCreateModal visible={creating} onClose={() => setCreating(false)} />
    </div>
  );
}
