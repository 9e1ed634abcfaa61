import { useState } from 'react';
import { Button, Empty, Message, Popconfirm, Space, Table, Tag, Typography, type TableColumnProps } from '@arco-design/web-react';
import { IconPlus } from '@arco-design/web-react/icon';
import type { Webhook } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { useFormatTime } from '../locale/format.ts';
import { useRemoveWebhook, useTestWebhook, useUpdateWebhook, useWebhooks } from './integrations.api.ts';
import { WebhookCreateModal } from './WebhookCreateModal.tsx';
import { DeliveryDrawer } from './DeliveryDrawer.tsx';
import { showOneTimeSecret } from './OneTimeSecret.tsx';

/** Webhooks: where events go, whether they arrive, and the controls to test, pause and rotate. */
export function WebhooksTab() {
  const t = useT();
  const { dateTime } = useFormatTime();
  const hooks = useWebhooks();
  const update = useUpdateWebhook();
  const remove = useRemoveWebhook();
  const test = useTestWebhook();
  const [creating, setCreating] = useState(false);
  const [logOf, setLogOf] = useState<Webhook>();

  const sendTest = async (hook: Webhook) => {
    await test.mutateAsync(hook.id);
    Message.success(t('integrations.webhooks.testQueued'));
    setLogOf(hook);
  };
  const rotate = async (hook: Webhook) => {
    const answer = await update.mutateAsync({ id: hook.id, body: { rotateSecret: true } });
    if (answer.secret) showOneTimeSecret(t, { title: t('integrations.webhooks.secretTitle'), text: t('integrations.webhooks.secretText'), value: answer.secret, testId: 'webhook-secret-once' });
  };

  const columns: TableColumnProps<Webhook>[] = [
    {
      title: t('integrations.webhooks.url'),
      dataIndex: 'url',
      render: (url: string, hook) => (
        <Space direction="vertical" size={2}>
          <Typography.Text copyable style={{ wordBreak: 'break-all' }}>
            {url}
          </Typography.Text>
          {hook.description && <Typography.Text type="secondary">{hook.description}</Typography.Text>}
        </Space>
      ),
    },
    {
      title: t('integrations.webhooks.events'),
      dataIndex: 'events',
      width: 260,
      render: (events: string[]) => (
        <Space wrap size={4}>
          {events.map((e) => (
            <Tag key={e} size="small">
              {e === '*' ? t('integrations.webhooks.allEvents') : e}
            </Tag>
          ))}
        </Space>
      ),
    },
    {
      title: t('integrations.webhooks.status'),
      dataIndex: 'enabled',
      width: 180,
      render: (on: boolean, hook) => (
        <Space direction="vertical" size={2}>
          <Tag color={on ? 'green' : hook.disabledReason === 'failing' ? 'red' : 'gray'} data-enabled={on}>
            {on ? t('integrations.webhooks.enabled') : t(hook.disabledReason === 'failing' ? 'integrations.webhooks.disabled.failing' : 'integrations.webhooks.disabled.admin')}
          </Tag>
          {hook.failingSince && <Typography.Text type="secondary">{t('integrations.webhooks.failingSince', { time: dateTime(hook.failingSince) })}</Typography.Text>}
        </Space>
      ),
    },
    {
      title: t('integrations.actions'),
      width: 360,
      fixed: 'right',
      render: (_, hook) => (
        <Space wrap size={4}>
          <Button size="small" type="text" onClick={() => void sendTest(hook)}>
            {t('integrations.webhooks.test')}
          </Button>
          <Button size="small" type="text" onClick={() => setLogOf(hook)}>
            {t('integrations.webhooks.log')}
          </Button>
          <Popconfirm title={t('integrations.webhooks.rotateConfirm')} onOk={() => rotate(hook)}>
            <Button size="small" type="text">
              {t('integrations.webhooks.rotate')}
            </Button>
          </Popconfirm>
          <Button size="small" type="text" onClick={() => void update.mutateAsync({ id: hook.id, body: { enabled: !hook.enabled } })}>
            {t(hook.enabled ? 'integrations.webhooks.disable' : 'integrations.webhooks.enable')}
          </Button>
          <Popconfirm title={t('integrations.webhooks.deleteConfirm', { url: hook.url })} onOk={() => remove.mutateAsync(hook.id)}>
            <Button size="small" type="text" status="danger">
              {t('integrations.webhooks.delete')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <div data-testid="webhooks-tab">
      <Typography.Paragraph type="secondary">{t('integrations.webhooks.intro')}</Typography.Paragraph>
      <Button type="primary" icon={<IconPlus />} onClick={() => setCreating(true)} style={{ marginBottom: 16 }}>
        {t('integrations.webhooks.create')}
      </Button>
      <Table
        rowKey="id"
        columns={columns}
        data={hooks.data ?? []}
        loading={hooks.isFetching}
        scroll={{ x: 1100 }}
        border={false}
        pagination={false}
        noDataElement={<Empty description={t('integrations.webhooks.empty')} />}
      />
      <WebhookCreateModal visible={creating} onClose={() => setCreating(false)} />
      <DeliveryDrawer webhook={logOf} onClose={() => setLogOf(undefined)} />
    </div>
  );
}
