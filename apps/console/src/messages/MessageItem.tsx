import { Avatar, Badge, Button, List, Space, Tooltip, Typography } from '@arco-design/web-react';
import { useNavigate } from 'react-router';
import { messageKinds, type Message } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { useFormatTime } from '../locale/format.ts';
import { Permission } from '../permission/Permission.tsx';
import { messageIcon } from './message-icons.tsx';

interface Props {
  message: Message;
  onRead(id: number): void;
  reading: boolean;
}

/** One message: unread ones are bold with a dot and can be marked read; account requests link to the approvals. */
export function MessageItem({ message, onRead, reading }: Props) {
  const t = useT();
  const navigate = useNavigate();
  const { dateTime, relative } = useFormatTime();
  const unread = message.status === 0;
  const { icon, color } = messageIcon[message.type];

  const actions = [
    message.messageType === messageKinds.accountRequest && (
      <Permission key="review" roles={['admin']}>
        <Button type="text" size="small" onClick={() => navigate('/system/system-user?status=pending')}>
          {t('messagesPage.review')}
        </Button>
      </Permission>
    ),
    unread ? (
      <Button key="read" type="text" size="small" loading={reading} onClick={() => onRead(message.id)} data-testid="mark-read">
        {t('messagesPage.markRead')}
      </Button>
    ) : (
      <Typography.Text key="read" type="secondary" style={{ fontSize: 12 }}>
        {t('messagesPage.read')}
      </Typography.Text>
    ),
  ].filter(Boolean);

  return (
    <List.Item actions={actions} data-message-id={message.id} data-status={message.status}>
      <List.Item.Meta
        avatar={
          <Badge dot count={unread ? 1 : 0} offset={[-2, 2]}>
            <Avatar size={36} style={{ backgroundColor: color }}>
              {message.avatar ? <img alt="" src={message.avatar} /> : icon}
            </Avatar>
          </Badge>
        }
        title={
          <Space size={8} wrap>
            <Typography.Text bold={unread} style={{ margin: 0 }}>
              {message.title}
            </Typography.Text>
            {message.subTitle && <Typography.Text type="secondary">{message.subTitle}</Typography.Text>}
          </Space>
        }
        description={
          <div>
            <Typography.Paragraph style={{ margin: 0, color: unread ? 'var(--color-text-1)' : 'var(--color-text-2)' }}>{message.content}</Typography.Paragraph>
            <Tooltip content={dateTime(message.time)}>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {relative(message.time)}
              </Typography.Text>
            </Tooltip>
          </div>
        }
      />
    </List.Item>
  );
}
