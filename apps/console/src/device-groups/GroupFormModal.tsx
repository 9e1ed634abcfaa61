import { useState } from 'react';
import { Checkbox, Form, Input, Message, Modal, Radio } from '@arco-design/web-react';
import type { DeviceGroupCreateBody, GroupMembersResult, TagCondition } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { parseSnLines, useCreateGroup } from './device-groups.api.ts';
import { RowErrors } from './RowErrors.tsx';
import { TagConditionsEditor, toCondition, type ConditionRow } from './TagConditionsEditor.tsx';

interface Values {
  name: string;
  description?: string;
  kind: 'static' | 'dynamic';
  sns?: string;
  conditions?: ConditionRow[];
  all?: boolean;
}

/** Creates a static group (a list of SNs) or a dynamic one (tag conditions; every device only when ticked). */
export function GroupFormModal({ visible, onClose }: { visible: boolean; onClose(): void }) {
  const t = useT();
  const [form] = Form.useForm<Values>();
  const [kind, setKind] = useState<Values['kind']>('dynamic');
  const [rowErrors, setRowErrors] = useState<GroupMembersResult | undefined>();
  const create = useCreateGroup();
  const submit = async () => {
    const v = await form.validate();
    const tags = (v.conditions ?? []).map(toCondition).filter((c): c is TagCondition => !!c);
    if (v.kind === 'dynamic' && tags.length === 0 && !v.all) {
      Message.warning(t('groups.rule.conditions'));
      return;
    }
    const body: DeviceGroupCreateBody = {
      name: v.name.trim(),
      description: v.description?.trim() ?? '',
      kind: v.kind,
      ...(v.kind === 'static' ? { sns: parseSnLines(v.sns ?? '') } : { filter: { tags, ...(tags.length === 0 ? { all: true as const } : {}) } }),
    };
    create.mutate({ body }, {
      onSuccess: (group) => {
        Message.success(t('groups.created'));
        if (group.members && group.members.errorCount > 0) {
          setRowErrors(group.members);
          return;
        }
        form.resetFields();
        onClose();
      },
    });
  };
  const close = () => {
    setRowErrors(undefined);
    form.resetFields();
    onClose();
  };
  return (
    <Modal visible={visible} title={t('groups.create')} onOk={rowErrors ? close : submit} onCancel={close} confirmLoading={create.isPending} unmountOnExit style={{ width: 640 }}>
      {rowErrors ? (
        <RowErrors count={rowErrors.errorCount} errors={rowErrors.errors} />
      ) : (
        <Form form={form} layout="vertical" initialValues={{ kind: 'dynamic', conditions: [{ op: 'eq' }] }} onValuesChange={(changed) => changed.kind && setKind(changed.kind)}>
          <Form.Item label={t('groups.field.name')} field="name" rules={[{ required: true, message: t('groups.rule.name') }]}>
            <Input maxLength={100} />
          </Form.Item>
          <Form.Item label={t('groups.field.description')} field="description">
            <Input.TextArea maxLength={500} autoSize={{ minRows: 1, maxRows: 3 }} />
          </Form.Item>
          <Form.Item label={t('groups.field.kind')} field="kind" extra={t(kind === 'static' ? 'groups.kind.staticHint' : 'groups.kind.dynamicHint')}>
            <Radio.Group type="button">
              <Radio value="dynamic">{t('groups.kind.dynamic')}</Radio>
              <Radio value="static">{t('groups.kind.static')}</Radio>
            </Radio.Group>
          </Form.Item>
          {kind === 'static' ? (
            <Form.Item label={t('groups.sns')} field="sns" extra={t('groups.sns.hint')}>
              <Input.TextArea autoSize={{ minRows: 4, maxRows: 10 }} style={{ fontFamily: 'monospace' }} />
            </Form.Item>
          ) : (
            <>
              <Form.Item label={t('groups.field.filter')}>
                <TagConditionsEditor field="conditions" />
              </Form.Item>
              <Form.Item field="all" triggerPropName="checked">
                <Checkbox>{t('groups.all')}</Checkbox>
              </Form.Item>
            </>
          )}
        </Form>
      )}
    </Modal>
  );
}
