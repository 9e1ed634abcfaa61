import { useState, type FormEvent } from 'react';
import { Button, Checkbox, Input, Link, Message } from '@arco-design/web-react';
import { IconLock, IconUser } from '@arco-design/web-react/icon';
import { useNavigate, useSearchParams } from 'react-router';
import type { CaptchaResult, SecondFactorChallenge } from '@mowerline/contract';
import { ApiError } from '../api/request.ts';
import { useT } from '../locale/i18n.ts';
import { afterLoginLocation } from '../router/guard.ts';
import { CaptchaField } from './CaptchaField.tsx';
import { FormField } from './FormField.tsx';
import { captchaWanted, secondFactorChallenge, useCaptcha, useSignIn } from './login.api.ts';
import { SecondFactorStep } from './SecondFactorStep.tsx';
import { validateLogin, type LoginFields } from './login-validation.ts';
import { rememberedUsername, rememberUsername } from './remembered-username.ts';

type Touched = Partial<Record<keyof LoginFields, boolean>>;

/**
 * Username and password in a real <form> with the `autocomplete` hints password managers need;
 * the captcha appears when the server asks for it; success goes back to the page that sent here.
 */
export function LoginForm() {
  const t = useT();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const signIn = useSignIn();
  const captchaCall = useCaptcha();
  const [captcha, setCaptcha] = useState<CaptchaResult | null>(null);
  const [values, setValues] = useState<LoginFields>(() => ({ username: rememberedUsername(), password: '', captcha: '' }));
  const [remember, setRemember] = useState(() => !!rememberedUsername());
  const [touched, setTouched] = useState<Touched>({});
  const [challenge, setChallenge] = useState<SecondFactorChallenge | null>(null);
  const captchaShown = !!captcha || captchaCall.isPending;
  const errors = validateLogin(values, captchaShown);
  const errorOf = (field: keyof LoginFields) => (touched[field] && errors[field] ? t(errors[field]) : undefined);

  const change = (field: keyof LoginFields) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setTouched((s) => ({ ...s, [field]: true }));
  };
  const blur = (field: keyof LoginFields) => () => setTouched((s) => ({ ...s, [field]: true }));

  const refreshCaptcha = () => {
    setValues((v) => ({ ...v, captcha: '' }));
    setTouched((s) => ({ ...s, captcha: false }));
    captchaCall.mutate(values.username.trim(), { onSuccess: setCaptcha });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched({ username: true, password: true, captcha: true });
    if (Object.keys(errors).length > 0 || signIn.isPending) return;
    const username = values.username.trim();
    try {
      await signIn.mutateAsync({
        username,
        password: values.password,
        remember,
        ...(captcha ? { captcha: values.captcha } : {}),
      });
    } catch (error) {
      // A right password on an account with a second factor: the card's next step.
      const next = secondFactorChallenge(error);
      if (next) {
        rememberUsername(username, remember);
        setValues((v) => ({ ...v, password: '' }));
        setChallenge(next);
        return;
      }
      // The request policy already showed a server refusal; anything else is ours to report.
      if (!(error instanceof ApiError)) Message.error(t('login.form.login.errMsg'));
      if (captcha || captchaWanted(error)) refreshCaptcha();
      return;
    }
    rememberUsername(username, remember);
    welcome();
  };

  const welcome = () => {
    Message.success(t('login.form.login.success'));
    navigate(afterLoginLocation(search), { replace: true });
  };

  if (challenge) {
    return <SecondFactorStep challenge={challenge} remember={remember} onDone={welcome} onBack={() => setChallenge(null)} />;
  }

  return (
    <form className="login-form" onSubmit={submit} noValidate data-testid="login-form">
      <FormField error={errorOf('username')}>
        <Input
          prefix={<IconUser />}
          placeholder={t('login.form.userName.placeholder')}
          name="username"
          autoComplete="username"
          autoFocus={!values.username}
          maxLength={64}
          value={values.username}
          onChange={change('username')}
          onBlur={blur('username')}
          status={errorOf('username') ? 'error' : undefined}
        />
      </FormField>
      <FormField error={errorOf('password')}>
        <Input.Password
          prefix={<IconLock />}
          placeholder={t('login.form.password.placeholder')}
          name="password"
          autoComplete="current-password"
          autoFocus={!!values.username}
          maxLength={128}
          value={values.password}
          onChange={change('password')}
          onBlur={blur('password')}
          status={errorOf('password') ? 'error' : undefined}
        />
      </FormField>
      {captchaShown ? (
        <CaptchaField
          captcha={captcha}
          loading={captchaCall.isPending}
          error={errorOf('captcha')}
          onSolved={(payload) => setValues((v) => ({ ...v, captcha: payload }))}
          onRefresh={refreshCaptcha}
        />
      ) : null}
      <div className="login-form-actions">
        <Checkbox checked={remember} onChange={setRemember} data-testid="login-remember">
          {t('login.form.rememberPassword')}
        </Checkbox>
        <Link href="#/forgot-password">{t('login.form.forgetPassword')}</Link>
      </div>
      <Button type="primary" htmlType="submit" long loading={signIn.isPending} data-testid="login-submit">
        {t('login.form.login')}
      </Button>
      <Button type="text" long className="login-form-register" href="#/register">
        {t('login.form.register')}
      </Button>
    </form>
  );
}
