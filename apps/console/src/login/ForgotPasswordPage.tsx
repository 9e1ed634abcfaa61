import { Form, Input, Link, Result } from '@arco-design/web-react';
import { IconUser } from '@arco-design/web-react/icon';
import { useT } from '../locale/i18n.ts';
import { AuthFormCard } from './AuthFormCard.tsx';
import { useForgotPassword } from './login.api.ts';

/** /forgot-password: asks the server to mail a reset link (it answers the same for unknown accounts). */
export default function ForgotPasswordPage() {
  const t = useT();
  const forgot = useForgotPassword();
  return (
    <AuthFormCard
      result={
        forgot.isSuccess && (
          <Result status="success" title={t('login.forgot.sent.title')} subTitle={t('login.forgot.sent.text')} extra={<Link href="#/login">{t('login.back')}</Link>} />
        )
      }
      title={t('login.forgot.title')}
      subTitle={t('login.forgot.subTitle')}
      onSubmit={(v: { username: string }) => forgot.mutate(v.username.trim())}
      submitText={t('login.forgot.submit')}
      submitting={forgot.isPending}
    >
      <Form.Item field="username" rules={[{ required: true, message: t('login.forgot.username.errMsg') }]}>
        <Input prefix={<IconUser />} placeholder={t('login.forgot.username.placeholder')} autoComplete="username" maxLength={254} />
      </Form.Item>
    </AuthFormCard>
  );
}
