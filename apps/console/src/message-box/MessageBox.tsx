import { useState } from 'react';
import { Badge, Button, Popover, Tabs, Tooltip } from '@arco-design/web-react';
import { IconNotification } from '@arco-design/web-react/icon';
import { useNavigate } from 'react-router';
import { messageTypes, type MessageType } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { useReadAllMessages, useUnreadCount } from '../messages/messages.api.ts';
import { MessageList } from './MessageList.tsx';
import './message-box.css';

function MessagePanel({ onClose }: { onClose(): void }) {
  const t = useT();
  const navigate = useNavigate();
  const [type, setType] = useState<MessageType>('message');
  const unread = useUnreadCount().data;
  const readAll = useReadAllMessages();
  return (
    <div className="message-box" data-testid="message-box">
      <Tabs activeTab={type} onChange={(key) => setType(key as MessageType)} type="rounded" destroyOnHide>
        {messageTypes.map((tab) => (
          <Tabs.TabPane
            key={tab}
            title={
              <span data-testid={`message-box-tab-${tab}`}>
                {t(`messageBox.tab.${tab}`)}
                {unread?.[tab] ? ` (${unread[tab]})` : ''}
              </span>
            }
          >
            <MessageList type={tab} />
          </Tabs.TabPane>
        ))}
      </Tabs>
      <div className="message-box-footer">
        <Button type="text" size="small" disabled={!unread?.[type]} loading={readAll.isPending} onClick={() => readAll.mutate(type)} data-testid="message-box-all-read">
          {t('messageBox.allRead')}
        </Button>
        <Button
          type="text"
          size="small"
          onClick={() => {
            onClose();
            navigate(`/user/messages?type=${type}`);
          }}
          data-testid="message-box-more"
        >
          {t('messageBox.viewMore')}
        </Button>
      </div>
    </div>
  );
}

/** The navbar's message box: tabs message / notice / todo with unread counts. */
export function MessageBox() {
  const t = useT();
  const [open, setOpen] = useState(false);
  const unread = useUnreadCount().data;
  const total = unread ? unread.message + unread.notice + unread.todo : 0;
  return (
    <Popover
      trigger="click"
      position="br"
      popupVisible={open}
      onVisibleChange={setOpen}
      content={<MessagePanel onClose={() => setOpen(false)} />}
      className="message-box-popover"
      unmountOnExit
    >
      <span>
        <Tooltip content={t('messageBox.title')} position="bottom">
          <Badge count={total} maxCount={99} offset={[-2, 2]} data-testid="message-box-badge">
            <Button className="navbar-button" shape="circle" icon={<IconNotification />} data-testid="message-box-button" aria-label={t('messageBox.title')} />
          </Badge>
        </Tooltip>
      </span>
    </Popover>
  );
}
