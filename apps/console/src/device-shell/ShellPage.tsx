import { useState } from 'react';
import { Badge, Card, Empty, Modal, Tabs, Typography } from '@arco-design/web-react';
import { IconCode, IconHistory } from '@arco-design/web-react/icon';
import { useT } from '../locale/i18n.ts';
import { DevicePicker } from './DevicePicker.tsx';
import { ShellHistory } from './ShellHistory.tsx';
import { TerminalPane, type SessionStatus } from './TerminalPane.tsx';
import './shell.css';

interface Tab {
  key: string;
  sn: string;
  status: SessionStatus;
}

const badge: Record<SessionStatus['phase'], 'processing' | 'success' | 'default' | 'error'> = {
  connecting: 'processing',
  opening: 'processing',
  open: 'success',
  closed: 'default',
  failed: 'error',
};

let nextTab = 1;

/** Device → device shell: remote shells on online mowers in tabs, and the recorded session history. */
export default function ShellPage() {
  const t = useT();
  const [area, setArea] = useState('terminal');
  const [tabs, setTabs] = useState<Tab[]>([]);
  const [active, setActive] = useState<string>();

  const open = (sn: string) => {
    const key = `s${nextTab++}`;
    setTabs((list) => [...list, { key, sn, status: { phase: 'connecting' } }]);
    setActive(key);
  };
  const remove = (key: string) => {
    const rest = tabs.filter((x) => x.key !== key);
    setTabs(rest);
    if (active === key) setActive(rest.at(-1)?.key);
  };
  const close = (key: string) => {
    const tab = tabs.find((x) => x.key === key);
    if (tab?.status.phase !== 'open') return remove(key);
    Modal.confirm({ title: t('shell.close.confirm'), content: t('shell.close.tabHint', { sn: tab.sn }), onOk: () => remove(key) });
  };

  return (
    <Card className="shell-page">
      <Tabs activeTab={area} onChange={setArea}>
        <Tabs.TabPane
          key="terminal"
          title={
            <span>
              <IconCode /> {t('shell.tab.terminal')}
            </span>
          }
        >
          <div className="shell-toolbar">
            <DevicePicker onOpen={open} />
            <Typography.Text type="secondary">{t('shell.warning')}</Typography.Text>
          </div>
          {tabs.length === 0 ? (
            <Empty description={t('shell.empty')} style={{ padding: '64px 0' }} />
          ) : (
            <Tabs type="card-gutter" editable showAddButton={false} activeTab={active} onChange={setActive} onDeleteTab={close}>
              {tabs.map((tab) => (
                <Tabs.TabPane
                  key={tab.key}
                  title={
                    <span data-testid="shell-tab">
                      <Badge status={badge[tab.status.phase]} /> {tab.sn}
                    </span>
                  }
                >
                  <TerminalPane
                    sn={tab.sn}
                    active={area === 'terminal' && active === tab.key}
                    onStatus={(status) => setTabs((list) => list.map((x) => (x.key === tab.key ? { ...x, status } : x)))}
                  />
                </Tabs.TabPane>
              ))}
            </Tabs>
          )}
        </Tabs.TabPane>
        <Tabs.TabPane
          key="history"
          title={
            <span>
              <IconHistory /> {t('shell.tab.history')}
            </span>
          }
        >
          {area === 'history' ? <ShellHistory /> : null}
        </Tabs.TabPane>
      </Tabs>
    </Card>
  );
}
