import { useState } from 'react';
import { Button, Empty, List, Message as Toast, Radio, Space } from '@arco-design/web-react';
import type { MessageType } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { useMessageList, useReadAllMessages, useReadMessages } from './messages.api.ts';
import { MessageItem } from './MessageItem.tsx';

const PAGE_SIZE = 10;

/** One type's messages: all or unread only, server-paged, mark one or all read. */
export function MessageTab({ type, unread }: { type: MessageType; unread: number }) {
  const t = useT();
  const [unreadOnly, setUnreadOnly] = useState(false);
  const [page, setPage] = useState(1);
  const list = useMessageList({ type, status: unreadOnly ? 0 : undefined, page, pageSize: PAGE_SIZE });
  const read = useReadMessages();
  const readAll = useReadAllMessages();

  return (
    <div>
      <div style={{ display: 'flex', justifyContent: 'space-between', gap: 12, flexWrap: 'wrap', marginBottom: 8 }}>
        <Radio.Group
          type="button"
          value={unreadOnly ? 'unread' : 'all'}
          onChange={(value: string) => {
            setUnreadOnly(value === 'unread');
            setPage(1);
          }}
          options={[
            { value: 'all', label: t('messagesPage.filter.all') },
            { value: 'unread', label: t('messagesPage.filter.unread') },
          ]}
        />
        <Space>
          <Button
            disabled={unread === 0}
            loading={readAll.isPending}
            onClick={() => readAll.mutate(type, { onSuccess: () => Toast.success(t('messagesPage.allRead.done')) })}
          >
            {t('messagesPage.allRead')}
          </Button>
        </Space>
      </div>
      <List
        loading={list.isFetching && !list.data}
        dataSource={list.data?.list ?? []}
        noDataElement={<Empty description={t(unreadOnly ? 'messagesPage.emptyUnread' : 'messagesPage.empty')} />}
        render={(message) => (
          <MessageItem
            key={message.id}
            message={message}
            reading={read.isPending && read.variables?.[0] === message.id}
            onRead={(id) => read.mutate([id])}
          />
        )}
        pagination={
          (list.data?.total ?? 0) > PAGE_SIZE
            ? { current: page, pageSize: PAGE_SIZE, total: list.data?.total ?? 0, onChange: setPage, showTotal: true }
            : undefined
        }
        bordered={false}
      />
    </div>
  );
}
