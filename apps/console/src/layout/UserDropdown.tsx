import { Avatar, Dropdown, Menu, Message } from '@arco-design/web-react';
import { IconExport, IconSettings, IconSwap, IconUser } from '@arco-design/web-react/icon';
import { useLocation, useNavigate, useRevalidator } from 'react-router';
import { roleDescriptions } from '@mowerline/contract';
import { useLocaleStore, useT } from '../locale/i18n.ts';
import { loginRedirect } from '../router/guard.ts';
import { logout } from '../session/session.api.ts';
import { useSession } from '../session/session.store.ts';
import { useTabBar } from './tab-bar.store.ts';

/** Avatar menu: user center, user settings, switch roles (administrators), logout. */
export function UserDropdown({ pageName }: { pageName?: string }) {
  const t = useT();
  const navigate = useNavigate();
  const location = useLocation();
  const revalidator = useRevalidator();
  const user = useSession((s) => s.user);
  const serverRole = useSession((s) => s.serverRole);

  const actions: Record<string, () => void> = {
    center: () => navigate('/user/center'),
    settings: () => navigate('/user/center?tab=security'),
    switchRoles() {
      useSession.getState().switchRole();
      const role = useSession.getState().user?.role;
      if (role) Message.success(t('navbar.switchRoles.done', { role: roleDescriptions[role].name[useLocaleStore.getState().locale] }));
      // Tabs of pages the new role may not open go, and the guard re-checks the page on screen.
      useTabBar.getState().reset();
      revalidator.revalidate();
    },
    async logout() {
      await logout();
      Message.success(t('navbar.logout.done'));
      const query = Object.fromEntries(new URLSearchParams(location.search));
      navigate(pageName ? loginRedirect({ name: pageName, query }) : '/login', { replace: true });
    },
  };

  const droplist = (
    <Menu onClickMenuItem={(key) => actions[key]?.()}>
      {serverRole === 'admin' ? (
        <Menu.Item key="switchRoles" data-testid="user-switch-roles">
          <IconSwap className="navbar-menu-icon" />
          {t('navbar.switchRoles')}
        </Menu.Item>
      ) : null}
      <Menu.Item key="center" data-testid="user-center">
        <IconUser className="navbar-menu-icon" />
        {t('navbar.userCenter')}
      </Menu.Item>
      <Menu.Item key="settings" data-testid="user-settings">
        <IconSettings className="navbar-menu-icon" />
        {t('navbar.userSettings')}
      </Menu.Item>
      <Menu.Item key="logout" data-testid="user-logout">
        <IconExport className="navbar-menu-icon" />
        {t('navbar.logout')}
      </Menu.Item>
    </Menu>
  );

  return (
    <Dropdown droplist={droplist} position="br" trigger="click">
      <button type="button" className="navbar-user" data-testid="user-menu">
        <Avatar size={32} style={{ backgroundColor: 'rgb(var(--primary-6))' }}>
          {user?.avatar ? <img src={user.avatar} alt="" /> : (user?.name ?? '?').slice(0, 1).toUpperCase()}
        </Avatar>
        <span className="navbar-user-name">{user?.name}</span>
      </button>
    </Dropdown>
  );
}
