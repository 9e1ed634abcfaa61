import { Alert, Form, Input, Message, Modal, Radio } from '@arco-design/web-react';
import type { StaffUser } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { PasswordPolicyHint, passwordPolicyRule } from '../user-center/PasswordPolicyHint.tsx';
import { announceLink } from './one-time-link.tsx';
import { useUpdateStaff } from './staff.api.ts';

interface Values {
  method: 'link' | 'set';
  password?: string;
}

/** Reset someone's password: mail them a link (the default) or set one and tell them. Both sign them out everywhere. */
export function ResetPasswordModal({ target, onClose }: { target: StaffUser | null; onClose(): void }) {
  const t = useT();
  const [form] = Form.useForm<Values>();
  const update = useUpdateStaff();
  const method = Form.useWatch('method', form) ?? (target?.email ? 'link' : 'set');
  const password = Form.useWatch('password', form) ?? '';

  const submit = async () => {
    if (!target) return;
    // An invalid form shows its messages in place; nothing to send.
    const values = await form.validate().catch(() => null);
    if (!values) return;
    const body = values.method === 'link' ? { id: target.id, sendResetLink: true } : { id: target.id, password: values.password };
    update.mutate(body, {
      onSuccess: (result) => {
        if (values.method === 'link') announceLink(result, 'reset', t);
        else Message.success(t('staff.done.passwordSet', { name: target.name }));
        onClose();
      },
    });
  };

  return (
    <Modal
      title={t('staff.reset.title', { name: target?.name ?? '' })}
      visible={!!target}
      onOk={submit}
      onCancel={onClose}
      confirmLoading={update.isPending}
      okText={t('staff.reset.submit')}
      unmountOnExit
      style={{ width: 520, maxWidth: 'calc(100vw - 32px)' }}
    >
      <Form form={form} layout="vertical" initialValues={{ method: target?.email ? 'link' : 'set' }} autoComplete="off">
        <Form.Item field="method" label={t('staff.reset.method')}>
          <Radio.Group direction="vertical">
            <Radio value="link" disabled={!target?.email}>
              {target?.email ? t('staff.reset.link', { email: target.email }) : t('staff.reset.noEmail')}
            </Radio>
            <Radio value="set">{t('staff.reset.set')}</Radio>
          </Radio.Group>
        </Form.Item>
        {method === 'set' && (
          <Form.Item
            label={t('staff.field.newPassword')}
            field="password"
            rules={[{ required: true, message: t('staff.rule.newPassword') }, passwordPolicyRule(t('staff.rule.policy'), () => target?.username ?? '')]}
            extra={<PasswordPolicyHint password={password} username={target?.username} />}
          >
            <Input.Password maxLength={128} autoComplete="new-password" />
          </Form.Item>
        )}
        <Alert type="warning" content={t('staff.reset.signOutHint')} />
      </Form>
    </Modal>
  );
}
