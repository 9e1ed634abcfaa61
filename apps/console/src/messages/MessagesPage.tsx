import { Badge, Card, Tabs } from '@arco-design/web-react';
import { useSearchParams } from 'react-router';
import { messageTypes, type MessageType } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { useUnreadCount } from './messages.api.ts';
import { MessageTab } from './MessageTab.tsx';

/** The message box's "view more": every message of each type. `?type=notice` opens that tab. */
export default function MessagesPage() {
  const t = useT();
  const [params, setParams] = useSearchParams();
  const type: MessageType = messageTypes.find((name) => name === params.get('type')) ?? 'message';
  const counts = useUnreadCount();

  return (
    <Card bordered={false}>
      <Tabs activeTab={type} onChange={(key) => setParams({ type: key }, { replace: true })} destroyOnHide>
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
    </Card>
  );
}
