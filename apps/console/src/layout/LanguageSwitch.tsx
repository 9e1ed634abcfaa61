import { Button, Dropdown, Menu, Tooltip } from '@arco-design/web-react';
import { IconLanguage } from '@arco-design/web-react/icon';
import { locales, type Locale } from '@mowerline/contract';
import { useLocaleStore, useT } from '../locale/i18n.ts';

const names: Record<Locale, string> = { 'zh-CN': '中文', 'en-US': 'English' };

/** Language choice: stored under `locale`, sent as Accept-Language from the next request on. */
export function LanguageSwitch() {
  const t = useT();
  const { locale, setLocale } = useLocaleStore();
  const droplist = (
    <Menu selectedKeys={[locale]} onClickMenuItem={(key) => setLocale(key as Locale)}>
      {locales.map((l) => (
        <Menu.Item key={l} data-testid={`language-${l}`}>
          {names[l]}
        </Menu.Item>
      ))}
    </Menu>
  );
  return (
    <Dropdown droplist={droplist} position="br" trigger="click">
      <Tooltip content={t('navbar.language')} position="bottom">
        <Button className="navbar-button" shape="circle" icon={<IconLanguage />} data-testid="language-switch" aria-label={t('navbar.language')} />
      </Tooltip>
    </Dropdown>
  );
}
