import { useState } from 'react';
import { Button, Input, Space, Typography } from '@arco-design/web-react';
import { totpCodeSchema, type TotpEnrolment as Enrolment } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { syncUser, useConfirmTotp } from './two-factor.api.ts';

/**
 * The QR code and the secret of a new authenticator (shown this once; the server never returns
 * it again), and the first code that activates it. `onDone` gets the recovery codes of a first factor.
 */
export function TotpEnrolment({ enrolment, onDone, onCancel }: { enrolment: Enrolment; onDone: (codes: string[] | null) => void; onCancel: () => void }) {
  const t = useT();
  const confirm = useConfirmTotp();
  const [code, setCode] = useState('');
  const valid = totpCodeSchema.safeParse(code).success;
  const submit = () =>
    confirm.mutate(
      { factorId: enrolment.factorId, code: code.trim() },
      {
        onSuccess: (data) => {
          void syncUser();
          onDone(data.recoveryCodes);
        },
        onError: () => setCode(''),
      },
    );

  return (
    <div className="two-factor-enrol" data-testid="totp-enrolment">
      <ol className="two-factor-steps">
        <li>{t('twoFactor.totp.step.scan')}</li>
        <li>
          {t('twoFactor.totp.step.secret')} <Typography.Text code copyable data-testid="totp-secret">{enrolment.secret}</Typography.Text>
        </li>
        <li>{t('twoFactor.totp.step.code')}</li>
      </ol>
      <img src={enrolment.qr} alt={t('twoFactor.totp.qrAlt')} width={180} height={180} className="two-factor-qr" />
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (valid) submit();
        }}
      >
        <Space>
          <Input
            aria-label={t('twoFactor.totp.codeLabel')}
            placeholder={t('twoFactor.totp.codePlaceholder')}
            autoComplete="one-time-code"
            inputMode="numeric"
            maxLength={6}
            value={code}
            onChange={setCode}
            style={{ width: 160 }}
            data-testid="totp-code"
          />
          <Button type="primary" htmlType="submit" disabled={!valid} loading={confirm.isPending} data-testid="totp-activate">
            {t('twoFactor.totp.activate')}
          </Button>
          <Button onClick={onCancel}>{t('twoFactor.cancel')}</Button>
        </Space>
      </form>
    </div>
  );
}
