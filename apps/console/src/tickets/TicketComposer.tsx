import { useState } from 'react';
import { Button, Input, Message, Radio, Select, Space, Typography } from '@arco-design/web-react';
import { IconLock, IconSend } from '@arco-design/web-react/icon';
import type { TicketDetail, TicketReplyBody } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { isFinal } from './labels.ts';
import { useReply } from './tickets.api.ts';

type Mode = 'reply' | 'note';
const KEEP = 'keep';
const MAX = 10_000;

/**
 * Answer the customer (in the app and by mail, in their language) or leave an internal note for
 * colleagues: the switch changes the box's colour and label so a note is never sent by mistake.
 * A public reply may set the status in the same step (pending the customer, resolved).
 */
export function TicketComposer({ ticket }: { ticket: TicketDetail }) {
  const t = useT();
  const reply = useReply();
  const [mode, setMode] = useState<Mode>('reply');
  const [text, setText] = useState('');
  const [then, setThen] = useState<string>(KEEP);
  const closed = isFinal(ticket.status);
  const internal = mode === 'note';

  const send = () => {
    const body: TicketReplyBody = { body: text.trim(), internal };
    if (!internal && then !== KEEP) body.status = then as NonNullable<TicketReplyBody['status']>;
    void reply.mutateAsync({ id: ticket.id, body }).then(
      () => {
        Message.success(t(internal ? 'ticket.composer.noted' : 'ticket.composer.sent'));
        setText('');
        setThen(KEEP);
      },
      () => {},
    );
  };

  if (closed) {
    return (
      <div className="ticket-composer ticket-composer-closed" data-testid="ticket-composer">
        <Typography.Text type="secondary">{t('ticket.composer.closed')}</Typography.Text>
      </div>
    );
  }
  return (
    <div className={internal ? 'ticket-composer ticket-composer-note' : 'ticket-composer'} data-testid="ticket-composer">
      <Radio.Group type="button" size="small" value={mode} onChange={setMode} aria-label={t('ticket.composer.mode')}>
        <Radio value="reply">{t('ticket.composer.reply')}</Radio>
        <Radio value="note">
          <IconLock /> {t('ticket.composer.note')}
        </Radio>
      </Radio.Group>
      <Typography.Text type="secondary" className="ticket-composer-hint">
        {t(internal ? 'ticket.composer.noteHint' : 'ticket.composer.replyHint', { locale: ticket.userLocale })}
      </Typography.Text>
      <Input.TextArea
        value={text}
        onChange={setText}
        maxLength={MAX}
        showWordLimit
        autoSize={{ minRows: 4, maxRows: 12 }}
        placeholder={t(internal ? 'ticket.composer.notePlaceholder' : 'ticket.composer.replyPlaceholder')}
        aria-label={t(internal ? 'ticket.composer.note' : 'ticket.composer.reply')}
        data-testid="ticket-composer-text"
      />
      <Space className="ticket-composer-actions" wrap>
        {internal ? null : (
          <Select
            size="small"
            style={{ width: 240 }}
            value={then}
            onChange={setThen}
            aria-label={t('ticket.composer.then')}
            options={[
              { value: KEEP, label: t('ticket.composer.keepStatus') },
              { value: 'pending_customer', label: t('ticket.composer.thenPending') },
              { value: 'resolved', label: t('ticket.composer.thenResolved') },
            ]}
          />
        )}
        <Button type="primary" status={internal ? 'warning' : undefined} icon={internal ? <IconLock /> : <IconSend />} disabled={!text.trim()} loading={reply.isPending} onClick={send}>
          {t(internal ? 'ticket.composer.addNote' : 'ticket.composer.send')}
        </Button>
      </Space>
    </div>
  );
}
