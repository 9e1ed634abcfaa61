import { Button, Form, Input, Link, Result } from '@arco-design/web-react';
import { IconUser } from '@arco-design/web-react/icon';
import { useT } from '../locale/i18n.ts';
import { AuthHeading } from './AuthHeading.tsx';
import { AuthLayout } from './AuthLayout.tsx';
import { useForgotPassword } from './login.api.ts';

/** /forgot-password: asks the server to mail a reset link (it answers the same for unknown accounts). */
export default function ForgotPasswordPage() {
  const t = useT();
  const forgot = useForgotPassword();
  return (
    <AuthLayout>
      <div className="login-form-wrapper">
        {forgot.isSuccess ? (
          <Result
            status="success"
            title={t('login.forgot.sent.title')}
            subTitle={t('login.forgot.sent.text')}
            extra={<Link href="#/login">{t('login.back')}</Link>}
          />
        ) : (
          <>
            <AuthHeading title={t('login.forgot.title')} subTitle={t('login.forgot.subTitle')} />
            <Form layout="vertical" className="login-form" onSubmit={(v: { username: string }) => forgot.mutate(v.username.trim())}>
              <Form.Item field="username" rules={[{ required: true, message: t('login.forgot.username.errMsg') }]}>
                <Input prefix={<IconUser />} placeholder={t('login.forgot.username.placeholder')} autoComplete="username" maxLength={254} />
              </Form.Item>
              <Button type="primary" htmlType="submit" long loading={forgot.isPending}>
                {t('login.forgot.submit')}
              </Button>
              <Button type="text" long className="login-form-register" href="#/login">
                {t('login.back')}
              </Button>
            </Form>
          </>
        )}
      </div>
    </AuthLayout>
  );
}
