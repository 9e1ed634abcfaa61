import { useRef, useState } from 'react';
import { Button, Form, Input, Modal, Progress, Select, Space, Typography } from '@arco-design/web-react';
import { IconFile } from '@arco-design/web-react/icon';
import { artifactExtensions, compareVersions, type ArtifactKind } from '@mowerline/contract';
import { useProductModels } from '../devices/devices.api.ts';
import { useT } from '../locale/i18n.ts';
import { useUploadArtifact, type UploadInput } from './firmware.api.ts';
import { formatBytes } from './labels.ts';

const VERSION = /^\d{1,4}\.\d{1,4}\.\d{1,4}(?:[-+][0-9A-Za-z.-]{1,16})?$/;

interface Values {
  modelId: number;
  version: string;
  language?: string;
  minFromVersion?: string;
  changelogZh?: string;
  changelogEn?: string;
}

/** Upload an image or a voice pack with its metadata; the bar follows the bytes sent. */
export function UploadModal({ kind, visible, onClose }: { kind: ArtifactKind; visible: boolean; onClose(): void }) {
  const t = useT();
  const [form] = Form.useForm<Values>();
  const models = useProductModels();
  const upload = useUploadArtifact(kind);
  const [file, setFile] = useState<File>();
  const [percent, setPercent] = useState<number>();
  const input = useRef<HTMLInputElement>(null);
  const accept = artifactExtensions[kind].join(',');

  const close = () => {
    form.resetFields();
    setFile(undefined);
    setPercent(undefined);
    upload.reset();
    onClose();
  };

  const submit = async () => {
    const values = await form.validate();
    if (!file) return;
    const fields: UploadInput['fields'] = { modelId: values.modelId, version: values.version.trim() };
    if (kind === 'voice' && values.language) fields.language = values.language;
    if (values.minFromVersion) fields.minFromVersion = values.minFromVersion.trim();
    if (values.changelogZh) fields.changelogZh = values.changelogZh;
    if (values.changelogEn) fields.changelogEn = values.changelogEn;
    setPercent(0);
    try {
      await upload.mutateAsync({ fields, file, onProgress: setPercent });
      close();
    } catch {
      // The request policy already showed why; keep the form so it can be corrected.
      setPercent(undefined);
    }
  };

  return (
    <Modal
      title={t(`ota.action.upload.${kind}`)}
      visible={visible}
      onCancel={close}
      onOk={submit}
      okText={t('ota.action.uploadStart')}
      okButtonProps={{ disabled: !file, loading: upload.isPending }}
      style={{ width: 600 }}
      unmountOnExit
    >
      <Form form={form} layout="vertical" disabled={upload.isPending} >
        <Form.Item label={t('ota.field.model')} field="modelId" rules={[{ required: true, message: t('ota.rule.model') }]}>
          <Select data-testid="ota-upload-model" options={(models.data ?? []).map((m) => ({ value: m.id, label: `${m.code} · ${m.name}` }))} />
        </Form.Item>
        <Space style={{ width: '100%' }} size={16} align="start">
          <Form.Item label={t('ota.field.version')} field="version" rules={[{ required: true, match: VERSION, message: t('ota.rule.version') }]}>
            <Input placeholder="1.4.2" maxLength={32} data-testid="ota-upload-version" />
          </Form.Item>
          {kind === 'firmware' ? (
            <Form.Item
              label={t('ota.field.minFrom')}
              field="minFromVersion"
              rules={[
                { match: VERSION, message: t('ota.rule.version') },
                {
                  // The server refuses it too (ARTIFACT_MIN_FROM_ABOVE); saying so here saves the upload.
                  validator: (value: string | undefined, cb: (error?: string) => void) => {
                    const version = (form.getFieldValue('version') as string | undefined)?.trim() ?? '';
                    const min = value?.trim() ?? '';
                    cb(min && VERSION.test(min) && VERSION.test(version) && compareVersions(min, version) >= 0 ? t('ota.rule.minFromBelow') : undefined);
                  },
                },
              ]}
            >
              <Input placeholder="1.0.0" maxLength={32} data-testid="ota-upload-min-from" />
            </Form.Item>
          ) : (
            <Form.Item label={t('ota.field.language')} field="language" rules={[{ required: true, message: t('ota.rule.language') }]}>
              <Select style={{ width: 160 }} placeholder={t('ota.rule.language')} data-testid="ota-upload-language" options={['zh-CN', 'en-US', 'de-DE', 'fr-FR', 'ja-JP'].map((l) => ({ value: l, label: l }))} />
            </Form.Item>
          )}
        </Space>
        <Form.Item label={t('ota.field.changelogZh')} field="changelogZh">
          <Input.TextArea maxLength={4000} autoSize={{ minRows: 2, maxRows: 5 }} />
        </Form.Item>
        <Form.Item label={t('ota.field.changelogEn')} field="changelogEn">
          <Input.TextArea maxLength={4000} autoSize={{ minRows: 2, maxRows: 5 }} />
        </Form.Item>
        <Form.Item label={t('ota.field.file')} required>
          <input ref={input} type="file" accept={accept} hidden data-testid="ota-upload-file" onChange={(e) => setFile(e.target.files?.[0])} />
          <Space>
            <Button icon={<IconFile />} onClick={() => input.current?.click()}>
              {t('ota.action.chooseFile')}
            </Button>
            <Typography.Text type="secondary">{file ? `${file.name} · ${formatBytes(file.size)}` : t('ota.hint.file', { types: accept })}</Typography.Text>
          </Space>
        </Form.Item>
        {percent !== undefined && <Progress percent={percent} status={percent === 100 ? 'success' : 'normal'} data-testid="ota-upload-progress" />}
      </Form>
    </Modal>
  );
}
