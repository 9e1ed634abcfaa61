import { Avatar, Badge, Card, Empty, Link, Skeleton, Space, Typography } from '@arco-design/web-react';
import { useNavigate } from 'react-router';
import { useT } from '../locale/i18n.ts';
import { useFormatTime } from '../locale/format.ts';
import { useMessageList } from '../messages/messages.api.ts';
import { messageIcon } from '../messages/message-icons.tsx';
import styles from './workplace.module.css';
import { routePath } from './route-path.ts';

const SHOWN = 5;

/** My unread messages, newest first; a click opens them on the messages page. */
export function UnreadMessages() {
  const t = useT();
  const navigate = useNavigate();
  const { relative } = useFormatTime();
  const unread = useMessageList({ status: 0, page: 1, pageSize: SHOWN });
  const messagesPath = routePath('user-messages');

  const title = (
    <Space size={8}>
      {t('workplace.unread.title')}
      <Badge count={unread.data?.total ?? 0} maxCount={99} />
    </Space>
  );
  let body;
  if (!unread.data) body = <Skeleton animation text={{ rows: 4 }} />;
  else if (unread.data.list.length === 0) body = <Empty description={t('workplace.unread.empty')} />;
  else
    body = unread.data.list.map((message) => (
      <div
        key={message.id}
        className={styles.messageRow}
        role="link"
        tabIndex={0}
        data-testid="unread-message"
        onClick={() => navigate(`${messagesPath}?type=${message.type}`)}
        onKeyDown={(e) => e.key === 'Enter' && navigate(`${messagesPath}?type=${message.type}`)}
      >
        <Avatar size={32} style={{ backgroundColor: messageIcon[message.type].color, flex: 'none' }}>
          {messageIcon[message.type].icon}
        </Avatar>
        <div className={styles.messageBody}>
          <Typography.Text bold ellipsis style={{ margin: 0, display: 'block' }}>
            {message.title}
          </Typography.Text>
          <Typography.Text type="secondary" ellipsis style={{ margin: 0, display: 'block', fontSize: 12 }}>
            {message.content}
          </Typography.Text>
        </div>
        <Typography.Text type="secondary" style={{ fontSize: 12, flex: 'none' }}>
          {relative(message.time)}
        </Typography.Text>
      </div>
    ));
  return (
    <Card bordered={false} title={title} extra={<Link onClick={() => navigate(messagesPath)}>{t('workplace.viewAll')}</Link>}>
      {body}
    </Card>
  );
}
