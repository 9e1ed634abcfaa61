import { useState } from 'react';
import { Form, Input, Message, Modal, Radio } from '@arco-design/web-react';
import { TAG_KEY_PATTERN, type DeviceTagsBody, type DeviceTagsResult, type GroupFilter } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { useUpdateTags } from './device-groups.api.ts';
import { RowErrors } from './RowErrors.tsx';

interface Values {
  action: 'set' | 'remove';
  key: string;
  value?: string;
}

/**
 * Sets or removes one tag on the ticked devices, or on every device the list's filters match (the
 * filters as a saved filter: the server matches them when it applies the change).
 */
export function BulkTagModal({ visible, selected, filter, matching, onClose }: { visible: boolean; selected: string[]; filter: GroupFilter; matching: number; onClose(): void }) {
  const t = useT();
  const [form] = Form.useForm<Values>();
  const [action, setAction] = useState<Values['action']>('set');
  const [result, setResult] = useState<DeviceTagsResult | undefined>();
  const update = useUpdateTags();
  const close = () => {
    setResult(undefined);
    form.resetFields();
    onClose();
  };
  const submit = async () => {
    const v = await form.validate();
    const target = selected.length > 0 ? { sns: selected } : { filter };
    const body: DeviceTagsBody = { ...target, set: v.action === 'set' ? { [v.key]: v.value ?? '' } : {}, remove: v.action === 'remove' ? [v.key] : [] };
    update.mutate({ body }, {
      onSuccess: (r) => {
        Message.success(t('tags.bulk.done', { count: r.devices }));
        if (r.errorCount > 0) setResult(r);
        else close();
      },
    });
  };
  return (
    <Modal visible={visible} title={t('tags.bulk')} onOk={result ? close : submit} onCancel={close} confirmLoading={update.isPending} unmountOnExit>
      {result ? (
        <RowErrors count={result.errorCount} errors={result.errors} />
      ) : (
        <Form form={form} layout="vertical" initialValues={{ action: 'set' }} onValuesChange={(changed) => changed.action && setAction(changed.action)}>
          <p data-testid="bulk-tag-scope">{selected.length > 0 ? t('tags.bulk.selection', { count: selected.length }) : t('tags.bulk.filter', { count: matching.toLocaleString() })}</p>
          <Form.Item field="action">
            <Radio.Group type="button">
              <Radio value="set">{t('tags.bulk.set')}</Radio>
              <Radio value="remove">{t('tags.bulk.remove')}</Radio>
            </Radio.Group>
          </Form.Item>
          <Form.Item
            label={t('tags.key')}
            field="key"
            rules={[{ validator: (v: string | undefined, cb) => cb(!v || !TAG_KEY_PATTERN.test(v) ? t('tags.keyInvalid') : undefined) }]}
          >
            <Input maxLength={63} placeholder="ring" />
          </Form.Item>
          {action === 'set' && (
            <Form.Item label={t('tags.value')} field="value">
              <Input maxLength={128} placeholder="beta" />
            </Form.Item>
          )}
        </Form>
      )}
    </Modal>
  );
}
