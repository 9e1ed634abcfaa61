import { useState } from 'react';
import { Button, Form, Input, Message, Modal, Table } from '@arco-design/web-react';
import { IconPlus } from '@arco-design/web-react/icon';
import { permissions, type ProductModel, type ProductModelCreateBody } from '@mowerline/contract';
import { useProductModels } from '../devices/devices.api.ts';
import { useT } from '../locale/i18n.ts';
import { useFormatTime } from '../locale/format.ts';
import { Permission } from '../permission/Permission.tsx';
import { useCreateModel } from './product-sn.api.ts';

function CreateModelModal({ visible, onClose }: { visible: boolean; onClose(): void }) {
  const t = useT();
  const [form] = Form.useForm<ProductModelCreateBody>();
  const create = useCreateModel();
  const submit = async () => {
    const v = await form.validate();
    create.mutate(
      { code: v.code.trim().toUpperCase(), name: v.name.trim(), ...(v.description?.trim() ? { description: v.description.trim() } : {}) },
      {
        onSuccess: (model) => {
          Message.success(t('productSn.model.created', { code: model.code }));
          form.resetFields();
          onClose();
        },
      },
    );
  };
  return (
    <Modal visible={visible} title={t('productSn.model.createTitle')} onOk={submit} onCancel={onClose} confirmLoading={create.isPending} unmountOnExit>
      <Form form={form} layout="vertical">
        <Form.Item
          label={t('productSn.model.code')}
          field="code"
          extra={t('productSn.model.codeHint')}
          rules={[
            { required: true, message: t('productSn.model.codeRequired') },
            { validator: (v: string | undefined, cb) => cb(v && !/^[A-Z0-9][A-Z0-9-]{0,31}$/.test(v.trim().toUpperCase()) ? t('productSn.model.codeInvalid') : undefined) },
          ]}
        >
          <Input maxLength={32} placeholder="MLX1" style={{ fontFamily: 'monospace' }} />
        </Form.Item>
        <Form.Item label={t('productSn.model.name')} field="name" rules={[{ required: true, message: t('productSn.model.nameRequired') }]}>
          <Input maxLength={64} placeholder="Mowerline X1" />
        </Form.Item>
        <Form.Item label={t('productSn.model.description')} field="description">
          <Input.TextArea maxLength={500} showWordLimit autoSize={{ minRows: 2, maxRows: 4 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Product models: the code devices and import files name, and a display name. */
export function ModelsTab() {
  const t = useT();
  const { dateTime } = useFormatTime();
  const models = useProductModels();
  const [creating, setCreating] = useState(false);
  return (
    <div>
      <div className="sn-toolbar">
        <span />
        <Permission roles={permissions.productSnWrite}>
          <Button type="primary" icon={<IconPlus />} onClick={() => setCreating(true)}>
            {t('productSn.model.create')}
          </Button>
        </Permission>
      </div>
      <Table<ProductModel>
        rowKey="id"
        loading={models.isLoading}
        data={models.data ?? []}
        border={false}
        pagination={false}
        noDataElement={<div className="devices-empty">{t('productSn.model.empty')}</div>}
        columns={[
          { title: t('productSn.model.code'), dataIndex: 'code', width: 160, render: (c: string) => <span style={{ fontFamily: 'monospace' }}>{c}</span> },
          { title: t('productSn.model.name'), dataIndex: 'name', width: 220 },
          { title: t('productSn.model.description'), dataIndex: 'description', ellipsis: true, tooltip: true, render: (d: string) => d || '-' },
          { title: t('productSn.field.createdAt'), dataIndex: 'createdAt', width: 180, render: (v: string) => dateTime(v) },
        ]}
      />
      <CreateModelModal visible={creating} onClose={() => setCreating(false)} />
    </div>
  );
}
