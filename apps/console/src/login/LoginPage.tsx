import { useT } from '../locale/i18n.ts';
import { AuthLayout } from './AuthLayout.tsx';
import { LoginForm } from './LoginForm.tsx';

/** /login: the only page in the entry chunk, so the first screen loads fast. */
export function LoginPage() {
  const t = useT();
  return (
    <AuthLayout>
      <div className="login-form-wrapper">
        <h1 className="login-form-title">{t('login.form.title')}</h1>
        <div className="login-form-sub-title">{t('login.form.subTitle')}</div>
        <LoginForm />
      </div>
    </AuthLayout>
  );
}
