import { Form, Input } from '@arco-design/web-react';
import { IconLock } from '@arco-design/web-react/icon';
import { useT } from '../locale/i18n.ts';
import { passwordPolicyRule, PasswordPolicyHint } from '../user-center/PasswordPolicyHint.tsx';

interface NewPasswordFieldsProps {
  /** The account's username, which the password may not contain (reset links don't know it). */
  username?: string;
}

/** New password with the live policy hint, and its confirmation (inside a Form); `new-password` lets browsers offer one. */
export function NewPasswordFields({ username = '' }: NewPasswordFieldsProps) {
  const t = useT();
  const { form } = Form.useFormContext();
  const password: string = Form.useWatch('password', form) ?? '';
  return (
    <>
      <Form.Item
        field="password"
        rules={[{ required: true, message: t('login.reset.password.errMsg') }, passwordPolicyRule(t('login.reset.password.policy'), () => username)]}
        extra={<PasswordPolicyHint password={password} username={username} />}
      >
        <Input.Password prefix={<IconLock />} placeholder={t('login.reset.password.placeholder')} autoComplete="new-password" maxLength={128} />
      </Form.Item>
      <Form.Item
        field="confirm"
        dependencies={['password']}
        rules={[
          {
            validator: (value: string | undefined, callback: (error?: string) => void) =>
              value === form.getFieldValue('password') ? callback() : callback(t('login.reset.confirm.errMsg')),
          },
        ]}
      >
        <Input.Password prefix={<IconLock />} placeholder={t('login.reset.confirm.placeholder')} autoComplete="new-password" maxLength={128} />
      </Form.Item>
    </>
  );
}
