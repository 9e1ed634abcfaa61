import { useState } from 'react';
import { Badge, Button, Card, Tabs } from '@arco-design/web-react';
import { IconSettings } from '@arco-design/web-react/icon';
import { useSearchParams } from 'react-router';
import { messageTypes, type MessageType } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { useUnreadCount } from './messages.api.ts';
import { MessageTab } from './MessageTab.tsx';
import { NotifyPrefsModal } from './NotifyPrefsModal.tsx';

/** The message box's "view more": every message of each type. `?type=notice` opens that tab. */
export default function MessagesPage() {
  const t = useT();
  const [params, setParams] = useSearchParams();
  const type: MessageType = messageTypes.find((name) => name === params.get('type')) ?? 'message';
  const counts = useUnreadCount();
  const [prefsOpen, setPrefsOpen] = useState(false);

  return (
    <Card bordered={false}>
      <Tabs
        activeTab={type}
        onChange={(key) => setParams({ type: key }, { replace: true })}
        destroyOnHide
        extra={
          <Button icon={<IconSettings />} onClick={() => setPrefsOpen(true)} data-testid="notify-prefs-open">
            {t('messagesPage.prefs.open')}
          </Button>
        }
      >
        {messageTypes.map((name) => (
          <Tabs.TabPane
            key={name}
            title={
              <span data-testid={`tab-${name}`} style={{ display: 'inline-flex', alignItems: 'center' }}>
                {t(`messageBox.tab.${name}`)}
                <Badge count={counts.data?.[name] ?? 0} maxCount={99} style={{ marginLeft: 6 }} />
              </span>
            }
          >
            <MessageTab type={name} unread={counts.data?.[name] ?? 0} />
          </Tabs.TabPane>
        ))}
      </Tabs>
      <NotifyPrefsModal visible={prefsOpen} onClose={() => setPrefsOpen(false)} />
    </Card>
  );
}
