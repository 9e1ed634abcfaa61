import { useEffect, useState } from 'react';
import { Button, Drawer, Layout as ArcoLayout } from '@arco-design/web-react';
import { IconMenuFold, IconMenuUnfold, IconSettings } from '@arco-design/web-react/icon';
import { Outlet, useMatches } from 'react-router';
import { useT } from '../locale/i18n.ts';
import type { PageHandle } from '../router/routes.tsx';
import { SettingsDrawer } from '../settings/SettingsDrawer.tsx';
import { StepUpModal } from '../two-factor/StepUpModal.tsx';
import { useSettings } from '../settings/settings.store.ts';
import { Breadcrumbs } from './Breadcrumbs.tsx';
import { Footer } from './Footer.tsx';
import { KeepAlivePages } from './KeepAlivePages.tsx';
import { MenuTree } from './MenuTree.tsx';
import { Navbar } from './Navbar.tsx';
import { TabBar } from './TabBar.tsx';
import { useTabBar } from './tab-bar.store.ts';
import { useResponsive } from './useResponsive.ts';
import './layout.css';

const NAVBAR_HEIGHT = 60;
const COLLAPSED_WIDTH = 48;

/** The signed-in frame: navbar, side or top menu, tab bar, breadcrumbs, the pages, footer, settings. */
export default function Layout() {
  const t = useT();
  const s = useSettings();
  useResponsive();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const page = (useMatches().at(-1)?.handle as PageHandle | undefined)?.page;
  const mobile = s.device === 'mobile';
  const sideMenu = s.menu && !s.topMenu && !mobile;
  const menuWidth = s.menuCollapse ? COLLAPSED_WIDTH : s.menuWidth;
  const selectedMenu = page?.activeMenu ?? page?.name;

  // A page that names its tab (a ticket's number and title) names the window too.
  const tabLabel = useTabBar((state) => state.tagList.find((tab) => tab.name === page?.name)?.label);
  useEffect(() => {
    document.title = page ? `${tabLabel ?? t(page.locales.at(-1)!)} · ${t('app.name')}` : t('app.name');
  }, [page, t, tabLabel]);

  return (
    <ArcoLayout className="layout">
      {s.navbar ? (
        <div className="layout-navbar">
          <Navbar pageName={page?.name} selectedMenu={selectedMenu} onOpenMenu={mobile && s.menu ? () => setDrawerOpen(true) : undefined} />
        </div>
      ) : null}
      <ArcoLayout>
        {sideMenu ? (
          <ArcoLayout.Sider
            className="layout-sider"
            width={s.menuWidth}
            collapsedWidth={COLLAPSED_WIDTH}
            collapsed={s.menuCollapse}
            collapsible
            trigger={null}
            style={{ paddingTop: s.navbar ? NAVBAR_HEIGHT : 0 }}
          >
            <div className="layout-menu">
              <MenuTree mode="vertical" collapsed={s.menuCollapse} selected={selectedMenu} />
            </div>
            <Button
              className="layout-collapse"
              size="small"
              icon={s.menuCollapse ? <IconMenuUnfold /> : <IconMenuFold />}
              onClick={() => s.update({ menuCollapse: !s.menuCollapse })}
              aria-label={t(s.menuCollapse ? 'layout.menu.expand' : 'layout.menu.collapse')}
              data-testid="menu-collapse"
            />
          </ArcoLayout.Sider>
        ) : null}
        <ArcoLayout className="layout-content" style={{ paddingLeft: sideMenu ? menuWidth : 0, paddingTop: s.navbar ? NAVBAR_HEIGHT : 0 }}>
          {s.tabBar ? <TabBar current={page?.name} /> : null}
          <ArcoLayout.Content className="layout-page">
            {page ? <Breadcrumbs page={page} /> : null}
            <KeepAlivePages current={page?.name} />
            <Outlet />
          </ArcoLayout.Content>
          {s.footer ? <Footer /> : null}
        </ArcoLayout>
      </ArcoLayout>
      {mobile && s.menu ? (
        <Drawer
          visible={drawerOpen}
          placement="left"
          width={s.menuWidth}
          footer={null}
          closable={false}
          title={
            <span className="navbar-logo">
              <img src={`${import.meta.env.BASE_URL}logo.svg`} alt="" width={28} height={28} />
              <span>{t('app.name')}</span>
            </span>
          }
          onCancel={() => setDrawerOpen(false)}
          className="layout-menu-drawer"
        >
          <MenuTree mode="vertical" selected={selectedMenu} onNavigate={() => setDrawerOpen(false)} />
        </Drawer>
      ) : null}
      {s.navbar ? null : (
        <Button
          className="settings-floating"
          type="primary"
          icon={<IconSettings />}
          onClick={() => s.update({ globalSettings: true })}
          aria-label={t('settings.open')}
          data-testid="settings-floating"
        />
      )}
      <SettingsDrawer />
      <StepUpModal />
    </ArcoLayout>
  );
}
