import { Input, Spin } from '@arco-design/web-react';
import { IconSafe } from '@arco-design/web-react/icon';
import type { CaptchaResult } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { FormField } from './FormField.tsx';

interface CaptchaFieldProps {
  captcha: CaptchaResult | null;
  loading: boolean;
  value: string;
  error?: string;
  onChange(value: string): void;
  onBlur(): void;
  onRefresh(): void;
}

/** The code input and its image; a click on the image draws a new one (each is single use). */
export function CaptchaField({ captcha, loading, value, error, onChange, onBlur, onRefresh }: CaptchaFieldProps) {
  const t = useT();
  return (
    <div className="login-captcha">
      <FormField error={error}>
        <Input
          prefix={<IconSafe />}
          placeholder={t('login.form.captcha.placeholder')}
          name="captchaCode"
          autoComplete="off"
          maxLength={16}
          value={value}
          onChange={onChange}
          onBlur={onBlur}
          status={error ? 'error' : undefined}
        />
      </FormField>
      <button type="button" className="login-captcha-image" onClick={onRefresh} title={t('login.form.captcha.refresh')} data-testid="captcha-image">
        {loading || !captcha ? <Spin /> : <img src={captcha.image} alt={t('login.form.captcha.alt')} />}
      </button>
    </div>
  );
}
