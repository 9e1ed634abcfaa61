import { Space, Typography } from '@arco-design/web-react';
import { IconCheckCircleFill, IconCloseCircleFill } from '@arco-design/web-react/icon';
import { checkPassword, PASSWORD_MIN_LENGTH } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';

const characterClasses = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/];

/**
 * Live hint under a new-password field. The verdict is the contract's `checkPassword` (the rule the
 * server enforces); the lines only explain which part of the policy is still missing.
 */
export function PasswordPolicyHint({ password, username = '' }: { password: string; username?: string }) {
  const t = useT();
  const classes = characterClasses.filter((re) => re.test(password)).length;
  const rules = [
    { key: 'length', ok: password.length >= PASSWORD_MIN_LENGTH, text: t('password.rule.length', { n: PASSWORD_MIN_LENGTH }) },
    { key: 'classes', ok: classes >= 3, text: t('password.rule.classes') },
    ...(username
      ? [{ key: 'username', ok: !!password && !password.toLowerCase().includes(username.toLowerCase()), text: t('password.rule.username') }]
      : []),
  ];
  const valid = checkPassword(password, username);
  return (
    <div data-testid="password-hint" data-valid={valid}>
      <Space direction="vertical" size={2}>
        {rules.map((rule) => (
          <Typography.Text key={rule.key} type={rule.ok ? 'success' : 'secondary'} style={{ fontSize: 12 }}>
            {rule.ok ? <IconCheckCircleFill /> : <IconCloseCircleFill />} {rule.text}
          </Typography.Text>
        ))}
      </Space>
    </div>
  );
}

/** Form rule: a new password must pass the policy (the server checks the same on submit). */
export function passwordPolicyRule(message: string, username: () => string = () => '') {
  return {
    validator(value: string | undefined, callback: (error?: string) => void) {
      if (value && !checkPassword(value, username())) callback(message);
      else callback();
    },
  };
}
