import { useState } from 'react';
import { Form, Input, Message, Modal } from '@arco-design/web-react';
import type { DeviceGroup, GroupMembersResult } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { parseSnLines, useGroupMembers } from './device-groups.api.ts';
import { RowErrors } from './RowErrors.tsx';

/** Adds and removes serial numbers of a static group; the rows the server left out are listed. */
export function MembersModal({ group, onClose }: { group: DeviceGroup | undefined; onClose(): void }) {
  const t = useT();
  const [form] = Form.useForm<{ add?: string; remove?: string }>();
  const [result, setResult] = useState<GroupMembersResult | undefined>();
  const members = useGroupMembers();
  const close = () => {
    setResult(undefined);
    form.resetFields();
    onClose();
  };
  const submit = async () => {
    if (!group) return;
    const v = await form.validate();
    members.mutate(
      { params: { id: group.id }, body: { add: parseSnLines(v.add ?? ''), remove: parseSnLines(v.remove ?? '') } },
      {
        onSuccess: (r) => {
          Message.success(t('groups.members.done', { added: r.added, removed: r.removed }));
          if (r.errorCount > 0) setResult(r);
          else close();
        },
      },
    );
  };
  return (
    <Modal visible={!!group} title={t('groups.members.title', { name: group?.name ?? '' })} onOk={result ? close : submit} onCancel={close} confirmLoading={members.isPending} unmountOnExit>
      {result ? (
        <RowErrors count={result.errorCount} errors={result.errors} />
      ) : (
        <Form form={form} layout="vertical">
          <Form.Item label={t('groups.members.add')} field="add" extra={t('groups.sns.hint')}>
            <Input.TextArea autoSize={{ minRows: 3, maxRows: 8 }} style={{ fontFamily: 'monospace' }} />
          </Form.Item>
          <Form.Item label={t('groups.members.remove')} field="remove">
            <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} style={{ fontFamily: 'monospace' }} />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
