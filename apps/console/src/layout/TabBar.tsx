import { Dropdown, Menu, Tag } from '@arco-design/web-react';
import { IconDown, IconRefresh } from '@arco-design/web-react/icon';
import { useNavigate } from 'react-router';
import { useT } from '../locale/i18n.ts';
import { DEFAULT_TAB, neighbourAfterClose, type TabItem } from './tab-bar.ts';
import { useTabBar } from './tab-bar.store.ts';

type TabAction = 'reload' | 'close' | 'closeLeft' | 'closeRight' | 'closeOthers' | 'closeAll';

/** The tab bar: one tab per open page, workplace first; actions per tab and for all. */
export function TabBar({ current }: { current?: string }) {
  const t = useT();
  const navigate = useNavigate();
  const tabs = useTabBar();
  const active = tabs.tagList.find((tab) => tab.name === current);

  const act = (action: TabAction, tab: TabItem) => {
    const state = useTabBar.getState();
    const index = state.tagList.findIndex((x) => x.name === tab.name);
    const currentIndex = state.tagList.findIndex((x) => x.name === current);
    switch (action) {
      case 'reload':
        // The page leaves the cache and the screen, then comes back fresh through /redirect.
        state.uncache(tab.name);
        navigate(`/redirect/${encodeURIComponent(tab.fullPath)}`, { replace: true });
        return;
      case 'close':
        if (tab.name === current) navigate(neighbourAfterClose(state, tab.name).fullPath);
        state.close(tab.name);
        return;
      case 'closeLeft':
        if (currentIndex < index) navigate(tab.fullPath);
        state.closeLeft(tab.name);
        return;
      case 'closeRight':
        if (currentIndex > index) navigate(tab.fullPath);
        state.closeRight(tab.name);
        return;
      case 'closeOthers':
        if (tab.name !== current) navigate(tab.fullPath);
        state.closeOthers(tab.name);
        return;
      case 'closeAll':
        navigate(DEFAULT_TAB.fullPath);
        state.closeAll();
    }
  };

  const actions = (tab: TabItem) => {
    const index = tabs.tagList.findIndex((x) => x.name === tab.name);
    const fixed = tab.name === DEFAULT_TAB.name;
    return (
      <Menu onClickMenuItem={(key) => act(key as TabAction, tab)}>
        <Menu.Item key="reload" disabled={tab.name !== current} data-testid="tab-reload">
          {t('tabBar.reload')}
        </Menu.Item>
        <Menu.Item key="close" disabled={fixed} data-testid="tab-close">
          {t('tabBar.close')}
        </Menu.Item>
        <Menu.Item key="closeLeft" disabled={index <= 1} data-testid="tab-close-left">
          {t('tabBar.closeLeft')}
        </Menu.Item>
        <Menu.Item key="closeRight" disabled={index === tabs.tagList.length - 1} data-testid="tab-close-right">
          {t('tabBar.closeRight')}
        </Menu.Item>
        <Menu.Item key="closeOthers" disabled={tabs.tagList.length <= (fixed ? 1 : 2)} data-testid="tab-close-others">
          {t('tabBar.closeOthers')}
        </Menu.Item>
        <Menu.Item key="closeAll" disabled={tabs.tagList.length <= 1} data-testid="tab-close-all">
          {t('tabBar.closeAll')}
        </Menu.Item>
      </Menu>
    );
  };

  return (
    <div className="tab-bar" data-testid="tab-bar">
      <div className="tab-bar-scroll">
        {tabs.tagList.map((tab) => (
          <Dropdown key={tab.name} droplist={actions(tab)} trigger="contextMenu" position="bl">
            <Tag
              className={tab.name === current ? 'tab-bar-tag tab-bar-tag-active' : 'tab-bar-tag'}
              closable={tab.name !== DEFAULT_TAB.name}
              onClose={(event: Event) => {
                event.stopPropagation();
                act('close', tab);
              }}
              onClick={() => tab.name !== current && navigate(tab.fullPath)}
              data-testid={`tabbar-${tab.name}`}
              data-cached={tabs.cacheTabList.includes(tab.name)}
            >
              <span className="tab-bar-dot" />
              {tab.label ?? t(tab.title)}
            </Tag>
          </Dropdown>
        ))}
      </div>
      {active ? (
        <div className="tab-bar-actions">
          <button type="button" className="tab-bar-action" onClick={() => act('reload', active)} title={t('tabBar.reload')} data-testid="tab-bar-reload">
            <IconRefresh />
          </button>
          <Dropdown droplist={actions(active)} trigger="click" position="br">
            <button type="button" className="tab-bar-action" title={t('tabBar.more')} data-testid="tab-bar-more">
              <IconDown />
            </button>
          </Dropdown>
        </div>
      ) : null}
    </div>
  );
}
