import { Form, Input, Modal, Select } from '@arco-design/web-react';
import { webhookEventFilters, type WebhookCreateBody } from '@mowerline/contract';
import { useDeviceGroups } from '../device-groups/device-groups.api.ts';
import { useT } from '../locale/i18n.ts';
import { useCreateWebhook } from './integrations.api.ts';
import { showOneTimeSecret } from './OneTimeSecret.tsx';

/** Creates a webhook (URL, events, device groups, description); its signing secret is shown once. */
export function WebhookCreateModal({ visible, onClose }: { visible: boolean; onClose(): void }) {
  const t = useT();
  const [form] = Form.useForm<WebhookCreateBody>();
  const create = useCreateWebhook();
  const groups = useDeviceGroups({ pageSize: 100 });
  const groupOptions = (groups.data?.list ?? []).map((g) => ({ value: g.id, label: g.name }));
  const submit = async () => {
    const values = await form.validate();
    const created = await create.mutateAsync({ url: values.url.trim(), events: values.events, groupIds: values.groupIds?.length ? values.groupIds : undefined, description: values.description || undefined });
    form.resetFields();
    onClose();
    showOneTimeSecret(t, { title: t('integrations.webhooks.secretTitle'), text: t('integrations.webhooks.secretText'), value: created.secret, testId: 'webhook-secret-once' });
  };
  return (
    <Modal title={t('integrations.webhooks.create')} visible={visible} onCancel={onClose} onOk={submit} confirmLoading={create.isPending} style={{ width: 600 }} unmountOnExit>
      <Form form={form} layout="vertical" initialValues={{ events: ['*'] }} data-testid="webhook-form">
        <Form.Item label={t('integrations.webhooks.url')} field="url" rules={[{ required: true, match: /^https?:\/\/\S+$/, message: t('integrations.webhooks.rule.url') }]}>
          <Input maxLength={2048} placeholder="https://hooks.example.com/mowerline" />
        </Form.Item>
        <Form.Item label={t('integrations.webhooks.events')} field="events" rules={[{ required: true, type: 'array', minLength: 1, message: t('integrations.webhooks.rule.events') }]}>
          <Select mode="multiple" allowClear aria-label={t('integrations.webhooks.events')} options={webhookEventFilters.map((e) => ({ value: e, label: e === '*' ? t('integrations.webhooks.allEvents') : e }))} />
        </Form.Item>
        <Form.Item label={t('integrations.webhooks.groups')} field="groupIds" extra={t('integrations.webhooks.groupsHelp')}>
          <Select mode="multiple" allowClear aria-label={t('integrations.webhooks.groups')} placeholder={t('integrations.webhooks.allMowers')} loading={groups.isLoading} options={groupOptions} />
        </Form.Item>
        <Form.Item label={t('integrations.webhooks.description')} field="description">
          <Input maxLength={200} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
