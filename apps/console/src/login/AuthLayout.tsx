import type { ReactNode } from 'react';
import { Button } from '@arco-design/web-react';
import { IconLanguage } from '@arco-design/web-react/icon';
import { useLocaleStore, useT } from '../locale/i18n.ts';
import { Footer } from '../layout/Footer.tsx';
import { LoginBanner } from './LoginBanner.tsx';
import './login.css';

/** The frame of the public pages: logo, slogan banner, the page's card, language switch, footer. */
export function AuthLayout({ children }: { children: ReactNode }) {
  const t = useT();
  const { locale, setLocale } = useLocaleStore();
  const other = locale === 'zh-CN' ? 'en-US' : 'zh-CN';
  return (
    <div className="login-container">
      <div className="login-logo">
        <img src={`${import.meta.env.BASE_URL}logo.svg`} alt="" width={32} height={32} />
        <span>{t('app.name')}</span>
      </div>
      <LoginBanner />
      <div className="login-content">
        <div className="login-language">
          <Button type="text" icon={<IconLanguage />} onClick={() => setLocale(other)} data-testid="login-language">
            {t(`login.language.${other}`)}
          </Button>
        </div>
        <div className="login-content-inner">{children}</div>
        <Footer />
      </div>
    </div>
  );
}
