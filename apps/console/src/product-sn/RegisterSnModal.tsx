import { Form, Input, Modal, Select } from '@arco-design/web-react';
import { SN_PATTERN, type SnCreateBody, type SnSecret } from '@mowerline/contract';
import { useProductModels } from '../devices/devices.api.ts';
import { useT } from '../locale/i18n.ts';
import { useRegisterSn } from './product-sn.api.ts';

/** Registers one SN; the secret in the answer goes to the show-once dialog. */
export function RegisterSnModal({ visible, onClose, onRegistered }: { visible: boolean; onClose(): void; onRegistered(secret: SnSecret): void }) {
  const t = useT();
  const [form] = Form.useForm<SnCreateBody>();
  const models = useProductModels();
  const register = useRegisterSn();
  const submit = async () => {
    const values = await form.validate();
    const body: SnCreateBody = {
      sn: values.sn.trim().toUpperCase(),
      modelId: values.modelId,
      ...(values.region?.trim() ? { region: values.region.trim().toLowerCase() } : {}),
      ...(values.owner?.trim() ? { owner: values.owner.trim() } : {}),
      ...(values.remark?.trim() ? { remark: values.remark.trim() } : {}),
    };
    register.mutate(body, {
      onSuccess: (secret) => {
        form.resetFields();
        onRegistered(secret);
      },
    });
  };
  return (
    <Modal visible={visible} title={t('productSn.register.title')} onOk={submit} onCancel={onClose} confirmLoading={register.isPending} unmountOnExit>
      <Form form={form} layout="vertical">
        <Form.Item
          label={t('productSn.field.sn')}
          field="sn"
          extra={t('productSn.register.snHint')}
          rules={[
            { required: true, message: t('productSn.register.snRequired') },
            { validator: (v: string | undefined, cb) => cb(v && !SN_PATTERN.test(v.trim().toUpperCase()) ? t('productSn.register.snInvalid') : undefined) },
          ]}
        >
          <Input maxLength={32} placeholder="MLX1-2026-000123" style={{ fontFamily: 'monospace' }} />
        </Form.Item>
        <Form.Item label={t('productSn.field.model')} field="modelId" rules={[{ required: true, message: t('productSn.register.modelRequired') }]}>
          <Select placeholder={t('productSn.register.modelPlaceholder')} options={(models.data ?? []).map((m) => ({ value: m.id, label: `${m.code} · ${m.name}` }))} />
        </Form.Item>
        <Form.Item
          label={t('productSn.field.region')}
          field="region"
          rules={[{ validator: (v: string | undefined, cb) => cb(v && !/^[a-z0-9][a-z0-9-]{0,31}$/.test(v.trim().toLowerCase()) ? t('productSn.register.regionInvalid') : undefined) }]}
        >
          <Input maxLength={32} placeholder="eu-north" />
        </Form.Item>
        <Form.Item label={t('productSn.field.owner')} field="owner">
          <Input maxLength={128} />
        </Form.Item>
        <Form.Item label={t('productSn.field.remark')} field="remark">
          <Input.TextArea maxLength={500} showWordLimit autoSize={{ minRows: 2, maxRows: 4 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
