import { Button, Form, Link, Message, Result } from '@arco-design/web-react';
import { useNavigate, useSearchParams } from 'react-router';
import { useT } from '../locale/i18n.ts';
import { AuthHeading } from './AuthHeading.tsx';
import { AuthLayout } from './AuthLayout.tsx';
import { useResetPassword } from './login.api.ts';
import { NewPasswordFields } from './NewPasswordFields.tsx';

/** /reset-password?token=…: the page of the mailed link; sets a new password, then back to sign-in. */
export default function ResetPasswordPage() {
  const t = useT();
  const navigate = useNavigate();
  const token = useSearchParams()[0].get('token') ?? '';
  const [form] = Form.useForm();
  const reset = useResetPassword();

  const submit = (values: { password: string }) =>
    reset.mutate(
      { token, newPassword: values.password },
      {
        onSuccess() {
          Message.success(t('login.reset.success'));
          navigate('/login', { replace: true });
        },
      },
    );

  return (
    <AuthLayout>
      <div className="login-form-wrapper">
        {token.length < 16 ? (
          <Result
            status="warning"
            title={t('login.reset.noToken.title')}
            subTitle={t('login.reset.noToken.text')}
            extra={<Link href="#/forgot-password">{t('login.reset.again')}</Link>}
          />
        ) : (
          <>
            <AuthHeading title={t('login.reset.title')} subTitle={t('login.reset.subTitle')} />
            <Form form={form} layout="vertical" className="login-form" onSubmit={submit}>
              <NewPasswordFields />
              <Button type="primary" htmlType="submit" long loading={reset.isPending}>
                {t('login.reset.submit')}
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
