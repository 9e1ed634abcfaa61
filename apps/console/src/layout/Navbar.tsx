import { Button, Tooltip } from '@arco-design/web-react';
import { IconMenu, IconMoonFill, IconSettings, IconSunFill } from '@arco-design/web-react/icon';
import { useT } from '../locale/i18n.ts';
import { MessageBox } from '../message-box/MessageBox.tsx';
import { useSettings } from '../settings/settings.store.ts';
import { FullscreenButton } from './FullscreenButton.tsx';
import { LanguageSwitch } from './LanguageSwitch.tsx';
import { MenuTree } from './MenuTree.tsx';
import { ServerSwitcher } from './ServerSwitcher.tsx';
import { UserDropdown } from './UserDropdown.tsx';

interface NavbarProps {
  /** Route name of the page on screen. */
  pageName?: string;
  selectedMenu?: string;
  /** Narrow screens: the menu lives in a drawer this button opens. */
  onOpenMenu?(): void;
}

/** Logo, top menu (top-menu mode), region, language, theme, messages, fullscreen, settings, user. */
export function Navbar({ pageName, selectedMenu, onOpenMenu }: NavbarProps) {
  const t = useT();
  const theme = useSettings((s) => s.theme);
  const topMenu = useSettings((s) => s.topMenu && s.menu);
  const update = useSettings((s) => s.update);
  const mobile = useSettings((s) => s.device === 'mobile');
  const themeLabel = t(theme === 'dark' ? 'navbar.theme.toLight' : 'navbar.theme.toDark');
  return (
    <nav className="navbar">
      <div className="navbar-left">
        {onOpenMenu ? <Button className="navbar-button" shape="circle" icon={<IconMenu />} onClick={onOpenMenu} aria-label={t('navbar.menu')} data-testid="navbar-menu-button" /> : null}
        <a className="navbar-logo" href="#/dashboard/workplace">
          <img src={`${import.meta.env.BASE_URL}logo.svg`} alt="" width={32} height={32} />
          {mobile ? null : <span>{t('app.name')}</span>}
        </a>
      </div>
      {topMenu && !mobile ? (
        <div className="navbar-center" data-testid="top-menu">
          <MenuTree mode="horizontal" selected={selectedMenu} />
        </div>
      ) : (
        <div className="navbar-center" />
      )}
      <ul className="navbar-right">
        {mobile ? null : (
          <li>
            <ServerSwitcher />
          </li>
        )}
        <li>
          <LanguageSwitch />
        </li>
        <li>
          <Tooltip content={themeLabel} position="bottom">
            <Button
              className="navbar-button"
              shape="circle"
              icon={theme === 'dark' ? <IconSunFill /> : <IconMoonFill />}
              onClick={() => update({ theme: theme === 'dark' ? 'light' : 'dark' })}
              aria-label={themeLabel}
              data-testid="theme-toggle"
            />
          </Tooltip>
        </li>
        <li>
          <MessageBox />
        </li>
        {mobile ? null : (
          <li>
            <FullscreenButton />
          </li>
        )}
        <li>
          <Tooltip content={t('settings.open')} position="bottom">
            <Button
              className="navbar-button"
              shape="circle"
              icon={<IconSettings />}
              onClick={() => update({ globalSettings: true })}
              aria-label={t('settings.open')}
              data-testid="settings-button"
            />
          </Tooltip>
        </li>
        <li>
          <UserDropdown pageName={pageName} />
        </li>
      </ul>
    </nav>
  );
}
