import { Form, Link, Message, Result } from '@arco-design/web-react';
import { useNavigate, useSearchParams } from 'react-router';
import { useT } from '../locale/i18n.ts';
import { AuthFormCard } from './AuthFormCard.tsx';
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
    <AuthFormCard
      result={
        token.length < 16 && (
          <Result
            status="warning"
            title={t('login.reset.noToken.title')}
            subTitle={t('login.reset.noToken.text')}
            extra={<Link href="#/forgot-password">{t('login.reset.again')}</Link>}
          />
        )
      }
      title={t('login.reset.title')}
      subTitle={t('login.reset.subTitle')}
      form={form}
      onSubmit={submit}
      submitText={t('login.reset.submit')}
      submitting={reset.isPending}
    >
      <NewPasswordFields />
    </AuthFormCard>
  );
}
