import type {} from 'altcha/types/react';
import { useEffect, useRef, useState } from 'react';
import { Button, Spin } from '@arco-design/web-react';
import { IconRefresh } from '@arco-design/web-react/icon';
import type { CaptchaResult } from '@mowerline/contract';
import { useLocaleStore, useT } from '../locale/i18n.ts';
import { FormField } from './FormField.tsx';

interface CaptchaFieldProps {
  captcha: CaptchaResult | null;
  loading: boolean;
  error?: string;
  /** The widget solved the challenge: its payload goes into the sign-in. */
  onSolved(payload: string): void;
  onRefresh(): void;
}

/** The widget's texts, from our locale files (every visible string in both languages). */
const widgetKeys = [
  'ariaLinkLabel',
  'cancel',
  'enterCode',
  'enterCodeAria',
  'enterCodeFromImage',
  'error',
  'expired',
  'footer',
  'getAudioChallenge',
  'label',
  'loading',
  'reload',
  'verify',
  'verificationRequired',
  'verified',
  'verifying',
  'waitAlert',
] as const;

/**
 * The proof-of-work captcha (ALTCHA): the widget solves the server's challenge in web workers as
 * soon as it appears, and hands back the payload the sign-in carries. Its code is loaded here,
 * on first use. A new challenge (after a failure, or on "reload") mounts a fresh widget.
 */
export function CaptchaField({ captcha, loading, error, onSolved, onRefresh }: CaptchaFieldProps) {
  const t = useT();
  const locale = useLocaleStore((s) => s.locale);
  const language = `mowerline-${locale.toLowerCase()}`;
  const [ready, setReady] = useState(false);
  const ref = useRef<HTMLElement>(null);
  const solved = useRef(onSolved);
  solved.current = onSolved;
  const refresh = useRef(onRefresh);
  refresh.current = onRefresh;

  useEffect(() => {
    let alive = true;
    void import('./altcha-widget.ts').then(({ setWidgetStrings }) => {
      if (!alive) return;
      setWidgetStrings(language, Object.fromEntries(widgetKeys.map((k) => [k, t(`login.form.captcha.widget.${k}`)])));
      setReady(true);
    });
    return () => {
      alive = false;
    };
  }, [language, t]);

  useEffect(() => {
    const widget = ref.current;
    if (!widget) return;
    const onState = (event: Event) => {
      const detail = (event as CustomEvent<{ state?: string; payload?: string }>).detail;
      if (detail.state === 'verified' && detail.payload) solved.current(detail.payload);
      if (detail.state === 'expired') refresh.current();
    };
    widget.addEventListener('statechange', onState);
    return () => widget.removeEventListener('statechange', onState);
  }, [ready, captcha]);

  const configuration = captcha
    ? JSON.stringify({ challenge: captcha.challenge, auto: 'onload', hideFooter: true, hideLogo: true, language, minDuration: 0 })
    : '';
  return (
    <div className="login-captcha" data-testid="captcha">
      <FormField error={error}>
        {ready && captcha && !loading ? (
          <div key={`${captcha.challenge.signature}:${language}`} className="login-captcha-widget" data-level={captcha.level}>
            <altcha-widget ref={ref} configuration={configuration} data-testid="captcha-widget" />
          </div>
        ) : (
          <Spin />
        )}
      </FormField>
      <Button icon={<IconRefresh />} onClick={onRefresh} title={t('login.form.captcha.refresh')} aria-label={t('login.form.captcha.refresh')} data-testid="captcha-refresh" />
    </div>
  );
}
