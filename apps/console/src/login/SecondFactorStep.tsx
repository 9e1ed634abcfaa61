import { useState, type FormEvent } from 'react';
import { Button, Input, Link } from '@arco-design/web-react';
import { IconSafe } from '@arco-design/web-react/icon';
import { totpCodeSchema, recoveryCodeSchema, type SecondFactorChallenge } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { FormField } from './FormField.tsx';
import { useSecondFactor } from './login.api.ts';
import { passkeyForSignIn } from '../two-factor/passkey.ts';

/**
 * The second step of the sign-in card: the six-digit code of the authenticator app, or one of the
 * recovery codes. A wrong code is toasted by the request policy and counts toward the lock-out.
 */
export function SecondFactorStep({ challenge, remember, onDone, onBack }: { challenge: SecondFactorChallenge; remember: boolean; onDone: () => void; onBack: () => void }) {
  const t = useT();
  const finish = useSecondFactor();
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [touched, setTouched] = useState(false);
  const valid = (recovery ? recoveryCodeSchema : totpCodeSchema).safeParse(code).success;
  const error = touched && !valid ? t(recovery ? 'login.secondFactor.recovery.errMsg' : 'login.secondFactor.totp.errMsg') : undefined;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!valid || finish.isPending) return;
    const body = recovery ? { challengeId: challenge.challengeId, recoveryCode: code.trim() } : { challengeId: challenge.challengeId, totp: code.trim() };
    try {
      await finish.mutateAsync({ body, remember });
    } catch {
      setCode('');
      setTouched(false);
      return;
    }
    onDone();
  };

  const signInWithPasskey = async () => {
    if (finish.isPending) return;
    let webauthn;
    try {
      webauthn = await passkeyForSignIn(challenge.challengeId);
    } catch {
      // Cancelled in the browser's prompt, or refused by the server (already toasted).
      return;
    }
    try {
      await finish.mutateAsync({ body: { challengeId: challenge.challengeId, webauthn }, remember });
    } catch {
      return;
    }
    onDone();
  };

  const switchKind = () => {
    setRecovery((r) => !r);
    setCode('');
    setTouched(false);
  };

  return (
    <form className="login-form" onSubmit={submit} noValidate data-testid="second-factor-form">
      <p className="login-second-factor-hint">{t(recovery ? 'login.secondFactor.recovery.hint' : 'login.secondFactor.totp.hint')}</p>
      <FormField error={error}>
        <Input
          prefix={<IconSafe />}
          aria-label={t(recovery ? 'login.secondFactor.recovery.label' : 'login.secondFactor.totp.label')}
          placeholder={t(recovery ? 'login.secondFactor.recovery.placeholder' : 'login.secondFactor.totp.placeholder')}
          name={recovery ? 'recovery-code' : 'one-time-code'}
          autoComplete="one-time-code"
          inputMode={recovery ? 'text' : 'numeric'}
          autoFocus
          maxLength={recovery ? 32 : 6}
          value={code}
          onChange={setCode}
          onBlur={() => setTouched(true)}
          status={error ? 'error' : undefined}
          data-testid="second-factor-code"
        />
      </FormField>
      <div className="login-form-actions">
        <Link onClick={switchKind} data-testid="second-factor-switch">
          {t(recovery ? 'login.secondFactor.useTotp' : 'login.secondFactor.useRecovery')}
        </Link>
        <Link onClick={onBack}>{t('login.secondFactor.back')}</Link>
      </div>
      <Button type="primary" htmlType="submit" long loading={finish.isPending} data-testid="second-factor-submit">
        {t('login.secondFactor.submit')}
      </Button>
      {challenge.factors.includes('webauthn') ? (
        <Button long style={{ marginTop: 12 }} onClick={() => void signInWithPasskey()} data-testid="second-factor-passkey">
          {t('login.secondFactor.passkey')}
        </Button>
      ) : null}
    </form>
  );
}
