import { useT } from '../locale/i18n.ts';

export function Footer() {
  const t = useT();
  return <footer className="app-footer">{t('app.footer', { year: new Date().getFullYear() })}</footer>;
}
