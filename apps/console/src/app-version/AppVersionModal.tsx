import { useEffect } from 'react';
import { Checkbox, Form, Input, InputNumber, Modal, Radio, Space } from '@arco-design/web-react';
import { FIRMWARE_VERSION_PATTERN, type AppVersion, type AppVersionCreateBody } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { useCreateAppVersion, useUpdateAppVersion } from './app-version.api.ts';

const MAX_BUILD = 2_000_000_000;

/**
 * Records a new iOS or Android release, or edits one (`editing`): platform, version and build name
 * the release and stay as recorded; its texts, policy and download link can change.
 */
export function AppVersionModal({ visible, editing, onClose }: { visible: boolean; editing?: AppVersion; onClose(): void }) {
  const t = useT();
  const [form] = Form.useForm<AppVersionCreateBody>();
  const create = useCreateAppVersion();
  const update = useUpdateAppVersion();
  useEffect(() => {
    if (visible && editing) form.setFieldsValue(editing);
  }, [visible, editing, form]);
  const submit = async () => {
    const values = await form.validate();
    const common = { changelogZh: values.changelogZh ?? '', changelogEn: values.changelogEn ?? '', forceUpdate: values.forceUpdate ?? false, minSupportedVersion: values.minSupportedVersion ?? '', downloadUrl: values.downloadUrl ?? '' };
    if (editing) await update.mutateAsync({ id: editing.id, body: common });
    else await create.mutateAsync({ ...values, ...common });
    form.resetFields();
    onClose();
  };
  return (
    <Modal
      title={editing ? t('appVersion.edit', { version: editing.version }) : t('appVersion.create')}
      visible={visible}
      onCancel={onClose}
      onOk={submit}
      confirmLoading={create.isPending || update.isPending}
      style={{ width: 600 }}
      unmountOnExit
    >
      <Form form={form} layout="vertical" initialValues={{ platform: 'android', forceUpdate: false }} data-testid="app-version-form">
        <Form.Item label={t('appVersion.platform')} field="platform">
          <Radio.Group type="button" disabled={!!editing}>
            <Radio value="android">Android</Radio>
            <Radio value="ios">iOS</Radio>
          </Radio.Group>
        </Form.Item>
        <Space size={16} align="start">
          <Form.Item label={t('appVersion.version')} field="version" rules={[{ required: true, match: FIRMWARE_VERSION_PATTERN, message: t('appVersion.rule.version') }]}>
            <Input placeholder="2.3.0" maxLength={32} disabled={!!editing} />
          </Form.Item>
          {/* No min/max on the input: it would clamp -5 to 1 silently; the rule refuses it and says why. */}
          <Form.Item
            label={t('appVersion.build')}
            field="build"
            rules={[
              { required: true, message: t('appVersion.rule.build') },
              { validator: (v: number | undefined, cb) => cb(v !== undefined && (!Number.isInteger(v) || v < 1 || v > MAX_BUILD) ? t('appVersion.rule.buildRange', { max: MAX_BUILD }) : undefined) },
            ]}
          >
            <InputNumber style={{ width: 160 }} disabled={!!editing} />
          </Form.Item>
          <Form.Item label={t('appVersion.minSupported')} field="minSupportedVersion" rules={[{ match: FIRMWARE_VERSION_PATTERN, message: t('appVersion.rule.version') }]}>
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
