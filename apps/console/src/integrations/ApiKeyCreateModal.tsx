import { Checkbox, DatePicker, Form, Input, Modal, Table } from '@arco-design/web-react';
import { apiKeyAccessModes, apiKeyScopes, type ApiKeyScope } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { useCreateApiKey } from './integrations.api.ts';
import { showOneTimeSecret } from './OneTimeSecret.tsx';

interface Values {
  name: string;
  scopes: ApiKeyScope[];
  expiresAt?: string;
}

/** The resources a key may be given, in the permission table's order. */
const resources = [...new Set(apiKeyScopes.map((s) => s.split(':')[0]!))];

/** Creates a key: name, scopes as a resource × read/write grid, optional expiry; the key is shown once. */
export function ApiKeyCreateModal({ visible, onClose }: { visible: boolean; onClose(): void }) {
  const t = useT();
  const [form] = Form.useForm<Values>();
  const create = useCreateApiKey();
  const submit = async () => {
    const values = await form.validate();
    const created = await create.mutateAsync({ name: values.name, scopes: values.scopes, expiresAt: values.expiresAt ? new Date(values.expiresAt).toISOString() : undefined });
    form.resetFields();
    onClose();
    showOneTimeSecret(t, { title: t('integrations.apiKeys.oneTimeTitle'), text: t('integrations.apiKeys.oneTimeText'), value: created.key, testId: 'api-key-once' });
  };
  return (
    <Modal title={t('integrations.apiKeys.create')} visible={visible} onCancel={onClose} onOk={submit} confirmLoading={create.isPending} style={{ width: 640 }} unmountOnExit>
      <Form form={form} layout="vertical" initialValues={{ scopes: [] }} data-testid="api-key-form">
        <Form.Item label={t('integrations.apiKeys.name')} field="name" rules={[{ required: true, message: t('integrations.apiKeys.rule.name') }]}>
          <Input maxLength={64} placeholder="warranty-system" />
        </Form.Item>
        <Form.Item label={t('integrations.apiKeys.expiresAt')} field="expiresAt">
          <DatePicker showTime style={{ width: 260 }} disabledDate={(d) => d.isBefore(new Date())} placeholder={t('integrations.apiKeys.never')} />
        </Form.Item>
        <Form.Item label={t('integrations.apiKeys.scopes')} field="scopes" rules={[{ required: true, type: 'array', minLength: 1, message: t('integrations.apiKeys.rule.scopes') }]}>
          <ScopeGrid />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** A controlled grid of checkboxes: one row per resource, a column per access mode. */
function ScopeGrid({ value = [], onChange }: { value?: ApiKeyScope[]; onChange?(v: ApiKeyScope[]): void }) {
  const t = useT();
  const toggle = (scope: ApiKeyScope, on: boolean) => onChange?.(on ? [...value, scope] : value.filter((s) => s !== scope));
  return (
    <Table
      size="mini"
      rowKey="resource"
      pagination={false}
      scroll={{ y: 260 }}
      data={resources.map((resource) => ({ resource }))}
      columns={[
        { title: t('integrations.apiKeys.resource'), dataIndex: 'resource', render: (r: string) => <code>{r}</code> },
        ...apiKeyAccessModes.map((mode) => ({
          title: t(`integrations.apiKeys.${mode}`),
          width: 90,
          render: (_: unknown, row: { resource: string }) => {
            const scope = `${row.resource}:${mode}` as ApiKeyScope;
            return <Checkbox checked={value.includes(scope)} onChange={(on: boolean) => toggle(scope, on)} aria-label={scope} data-scope={scope} />;
          },
        })),
      ]}
    />
  );
}
