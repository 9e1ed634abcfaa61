import { useEffect, useRef, useState } from 'react';
import { Button, Input, Link, Modal } from '@arco-design/web-react';
import { recoveryCodeSchema, totpCodeSchema, twoFactorApi, type StepUpBody } from '@mowerline/contract';
import { call } from '../api/endpoint-client.ts';
import { setStepUpPrompt } from '../api/second-factor-policy.ts';
import { useT } from '../locale/i18n.ts';
import { useStepUp } from './two-factor.api.ts';
import { passkeyForStepUp } from './passkey.ts';

type Kind = 'totp' | 'recovery' | 'password';

/**
 * "Confirm it is you": opened by the request policy when the server answers STEP_UP_REQUIRED
 * (a shell, a rollout, a device secret, a staff change). An account with a second factor answers
 * with a code or a recovery code; one without (where the policy does not require one) with its
 * password. The refused call is retried once this resolves.
 */
export function StepUpModal() {
  const t = useT();
  const stepUp = useStepUp();
  const [open, setOpen] = useState(false);
  const [kind, setKind] = useState<Kind>('totp');
  const [value, setValue] = useState('');
  const [passkey, setPasskey] = useState(false);
  const resolver = useRef<((ok: boolean) => void) | null>(null);

  useEffect(() => {
    setStepUpPrompt(async () => {
      // Which proof to ask for depends on whether the account has a factor.
      const status = await call(twoFactorApi.status, {}, { silent: true }).catch(() => null);
      setKind(status && status.factors.length === 0 ? 'password' : status?.factors.some((f) => f.kind === 'totp') === false ? 'recovery' : 'totp');
      setPasskey(!!status?.factors.some((f) => f.kind === 'webauthn'));
      setValue('');
      setOpen(true);
      return new Promise<boolean>((resolve) => {
        resolver.current = resolve;
      });
    });
    return () => setStepUpPrompt(null);
  }, []);

  const close = (ok: boolean) => {
    setOpen(false);
    resolver.current?.(ok);
    resolver.current = null;
  };

  const valid = kind === 'totp' ? totpCodeSchema.safeParse(value).success : kind === 'recovery' ? recoveryCodeSchema.safeParse(value).success : value.length > 0;
  const submit = () => {
    if (!valid || stepUp.isPending) return;
    const body: StepUpBody = kind === 'totp' ? { totp: value.trim() } : kind === 'recovery' ? { recoveryCode: value.trim() } : { password: value };
    stepUp.mutate(body, { onSuccess: () => close(true), onError: () => setValue('') });
  };

  const confirmWithPasskey = async () => {
    let body: StepUpBody;
    try {
      body = await passkeyForStepUp();
    } catch {
      return;
    }
    stepUp.mutate(body, { onSuccess: () => close(true) });
  };

  return (
    <Modal
      title={t('twoFactor.stepUp.title')}
      visible={open}
      onOk={submit}
      onCancel={() => close(false)}
      okText={t('twoFactor.stepUp.confirm')}
      okButtonProps={{ disabled: !valid, 'data-testid': 'step-up-confirm' } as never}
      confirmLoading={stepUp.isPending}
      unmountOnExit
    >
      <p>{t(`twoFactor.stepUp.hint.${kind}`)}</p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        {kind === 'password' ? (
          <Input.Password autoFocus autoComplete="current-password" aria-label={t('twoFactor.stepUp.label.password')} value={value} onChange={setValue} data-testid="step-up-input" />
        ) : (
          <Input
            autoFocus
            autoComplete="one-time-code"
            inputMode={kind === 'totp' ? 'numeric' : 'text'}
            maxLength={kind === 'totp' ? 6 : 32}
            aria-label={t(`twoFactor.stepUp.label.${kind}`)}
            value={value}
            onChange={setValue}
            data-testid="step-up-input"
          />
        )}
      </form>
      {kind !== 'password' ? (
        <Link style={{ marginTop: 12 }} onClick={() => (setKind(kind === 'totp' ? 'recovery' : 'totp'), setValue(''))}>
          {t(kind === 'totp' ? 'twoFactor.stepUp.useRecovery' : 'twoFactor.stepUp.useTotp')}
        </Link>
      ) : null}
      {passkey ? (
        <Button long style={{ marginTop: 12 }} onClick={() => void confirmWithPasskey()} data-testid="step-up-passkey">
          {t('twoFactor.stepUp.passkey')}
        </Button>
      ) : null}
    </Modal>
  );
}
