import type { ReactNode } from 'react';
import { Avatar, Empty, Spin } from '@arco-design/web-react';
import { IconCheckSquare, IconMessage, IconNotification } from '@arco-design/web-react/icon';
import type { Message, MessageType } from '@mowerline/contract';
import { useFormatTime } from '../locale/format.ts';
import { useT } from '../locale/i18n.ts';
import { useMessageList, useReadMessages } from '../messages/messages.api.ts';

/** How many messages the box shows per tab; "view more" opens the full list. */
export const BOX_PAGE_SIZE = 5;

const typeIcons: Record<MessageType, ReactNode> = {
  message: <IconMessage />,
  notice: <IconNotification />,
  todo: <IconCheckSquare />,
};

function MessageItem({ message, onRead }: { message: Message; onRead(id: number): void }) {
  const time = useFormatTime();
  const unread = message.status === 0;
  return (
    <li
      className={unread ? 'message-box-item message-box-item-unread' : 'message-box-item'}
      onClick={() => unread && onRead(message.id)}
      data-testid="message-box-item"
      data-status={message.status}
    >
      <Avatar size={32} className="message-box-avatar">
        {message.avatar ? <img src={message.avatar} alt="" /> : typeIcons[message.type]}
      </Avatar>
      <div className="message-box-body">
        <div className="message-box-title">
          <span>{message.title}</span>
          {message.subTitle ? <span className="message-box-sub-title">{message.subTitle}</span> : null}
        </div>
        <div className="message-box-content">{message.content}</div>
        <div className="message-box-time">{time.relative(message.time)}</div>
      </div>
      {unread ? <span className="message-box-dot" aria-hidden /> : null}
    </li>
  );
}

/** One tab of the message box: the latest messages of that type; a click on an unread one reads it. */
export function MessageList({ type }: { type: MessageType }) {
  const t = useT();
  const list = useMessageList({ type, page: 1, pageSize: BOX_PAGE_SIZE });
  const read = useReadMessages();
  if (list.isPending) {
    return (
      <div className="message-box-state">
        <Spin />
      </div>
    );
  }
  if (!list.data?.list.length) return <Empty className="message-box-state" description={t('messageBox.empty')} />;
  return (
    <ul className="message-box-list">
      {list.data.list.map((message) => (
        <MessageItem key={message.id} message={message} onRead={(id) => read.mutate([id])} />
      ))}
    </ul>
  );
}
