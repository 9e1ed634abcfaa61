import { useState } from 'react';
import { Alert, Button, Form, Input, Message } from '@arco-design/web-react';
import type { ChangePasswordBody } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { useChangePassword } from './user-center.api.ts';
import { PasswordPolicyHint, passwordPolicyRule } from './PasswordPolicyHint.tsx';

type Values = ChangePasswordBody & { confirm: string };

/** Change password: the new one is checked live against the policy; other sessions end on success. */
export function PasswordForm({ username }: { username: string }) {
  const t = useT();
  const [form] = Form.useForm<Values>();
  const change = useChangePassword();
  const [done, setDone] = useState(false);
  const newPassword = Form.useWatch('newPassword', form) ?? '';

  const submit = ({ oldPassword, newPassword }: Values) =>
    change.mutate(
      { oldPassword, newPassword },
      {
        onSuccess: () => {
          Message.success(t('userCenter.password.changed'));
          setDone(true);
          form.resetFields();
        },
      },
    );

  return (
    <div style={{ maxWidth: 640 }}>
      {done && (
        <Alert
          type="success"
          closable
          onClose={() => setDone(false)}
          style={{ marginBottom: 20 }}
          title={t('userCenter.password.changed')}
          content={t('userCenter.password.othersSignedOut')}
          data-testid="password-changed"
        />
      )}
      <Form form={form} layout="horizontal" labelCol={{ span: 5 }} wrapperCol={{ span: 19 }} onSubmit={submit} onChange={() => setDone(false)}>
        {/* Lets the browser's password manager tie the new password to this account. */}
        <input type="text" name="username" autoComplete="username" value={username} readOnly hidden />
        <Form.Item label={t('userCenter.password.old')} field="oldPassword" rules={[{ required: true, message: t('userCenter.rule.oldPassword') }]}>
          <Input.Password autoComplete="current-password" maxLength={128} />
        </Form.Item>
        <Form.Item
          label={t('userCenter.password.new')}
          field="newPassword"
          rules={[
            { required: true, message: t('userCenter.rule.newPassword') },
            passwordPolicyRule(t('userCenter.rule.policy'), () => username),
          ]}
          extra={<PasswordPolicyHint password={newPassword} username={username} />}
        >
          <Input.Password autoComplete="new-password" maxLength={128} />
        </Form.Item>
        <Form.Item
          label={t('userCenter.password.confirm')}
          field="confirm"
          dependencies={['newPassword']}
          rules={[
            { required: true, message: t('userCenter.rule.confirm') },
            {
              validator: (value: string | undefined, callback: (error?: string) => void) =>
                value && value !== form.getFieldValue('newPassword') ? callback(t('userCenter.rule.mismatch')) : callback(),
            },
          ]}
        >
          <Input.Password autoComplete="new-password" maxLength={128} />
        </Form.Item>
        <Form.Item wrapperCol={{ offset: 5, span: 19 }}>
          <Button type="primary" htmlType="submit" loading={change.isPending}>
            {t('userCenter.password.submit')}
          </Button>
        </Form.Item>
      </Form>
    </div>
  );
}
