import { Checkbox, Form, Input, InputNumber, Modal, Radio, Space } from '@arco-design/web-react';
import type { AppVersionCreateBody } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { useCreateAppVersion } from './app-version.api.ts';

const VERSION = /^\d{1,4}\.\d{1,4}\.\d{1,4}(?:[-+][0-9A-Za-z.-]{1,16})?$/;

/** Records a new iOS or Android release. */
export function AppVersionModal({ visible, onClose }: { visible: boolean; onClose(): void }) {
  const t = useT();
  const [form] = Form.useForm<AppVersionCreateBody>();
  const create = useCreateAppVersion();
  const submit = async () => {
    const values = await form.validate();
    await create.mutateAsync({ ...values, minSupportedVersion: values.minSupportedVersion ?? '', downloadUrl: values.downloadUrl ?? '' });
    form.resetFields();
    onClose();
  };
  return (
    <Modal title={t('appVersion.create')} visible={visible} onCancel={onClose} onOk={submit} confirmLoading={create.isPending} style={{ width: 600 }} unmountOnExit>
      <Form form={form} layout="vertical" initialValues={{ platform: 'android', forceUpdate: false }}>
        <Form.Item label={t('appVersion.platform')} field="platform">
          <Radio.Group type="button">
            <Radio value="android">Android</Radio>
            <Radio value="ios">iOS</Radio>
          </Radio.Group>
        </Form.Item>
        <Space size={16} align="start">
          <Form.Item label={t('appVersion.version')} field="version" rules={[{ required: true, match: VERSION, message: t('appVersion.rule.version') }]}>
            <Input placeholder="2.3.0" maxLength={32} />
          </Form.Item>
          <Form.Item label={t('appVersion.build')} field="build" rules={[{ required: true, message: t('appVersion.rule.build') }]}>
            <InputNumber min={1} max={2_000_000_000} style={{ width: 160 }} />
          </Form.Item>
          <Form.Item label={t('appVersion.minSupported')} field="minSupportedVersion" rules={[{ match: VERSION, message: t('appVersion.rule.version') }]}>
            <Input placeholder="2.0.0" maxLength={32} />
          </Form.Item>
        </Space>
        <Form.Item label={t('appVersion.changelogZh')} field="changelogZh">
          <Input.TextArea maxLength={4000} autoSize={{ minRows: 2, maxRows: 5 }} />
        </Form.Item>
        <Form.Item label={t('appVersion.changelogEn')} field="changelogEn">
          <Input.TextArea maxLength={4000} autoSize={{ minRows: 2, maxRows: 5 }} />
        </Form.Item>
        <Form.Item label={t('appVersion.downloadUrl')} field="downloadUrl" rules={[{ type: 'url', message: t('appVersion.rule.url') }]}>
          <Input placeholder="https://" maxLength={1024} />
        </Form.Item>
        <Form.Item field="forceUpdate" triggerPropName="checked">
          <Checkbox>{t('appVersion.forceUpdate')}</Checkbox>
        </Form.Item>
      </Form>
    </Modal>
  );
}
