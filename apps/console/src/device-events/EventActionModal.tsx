import { useEffect, useState } from 'react';
import { Input, Message, Modal, Typography } from '@arco-design/web-react';
import { useT } from '../locale/i18n.ts';
import { useAdvanceEvents, type EventStep } from './events.api.ts';

export interface PendingAction {
  step: EventStep;
  ids: number[];
}

/** Acknowledge or clear one or many events, with an optional comment kept with who and when. */
export function EventActionModal({ action, onClose }: { action: PendingAction | undefined; onClose(done: boolean): void }) {
  const t = useT();
  const [comment, setComment] = useState('');
  const advance = useAdvanceEvents();
  useEffect(() => setComment(''), [action]);
  const submit = () => {
    if (!action) return;
    advance.mutate(
      { step: action.step, ids: action.ids, comment: comment.trim() || undefined },
      {
        onSuccess: (result) => {
          const key = action.step === 'ack' ? 'deviceEvents.done.ack' : 'deviceEvents.done.clear';
          Message.success(t(key, { count: result.updated.length }));
          if (result.skipped.length > 0) Message.warning(t('deviceEvents.done.skipped', { count: result.skipped.length }));
          onClose(true);
        },
      },
    );
  };
  const step = action?.step ?? 'ack';
  return (
    <Modal
      visible={!!action}
      title={t(step === 'ack' ? 'deviceEvents.modal.ackTitle' : 'deviceEvents.modal.clearTitle', { count: action?.ids.length ?? 0 })}
      okText={t(step === 'ack' ? 'deviceEvents.action.ack' : 'deviceEvents.action.clear')}
      okButtonProps={{ status: step === 'clear' ? 'warning' : 'default' }}
      confirmLoading={advance.isPending}
      onOk={submit}
      onCancel={() => onClose(false)}
      unmountOnExit
    >
      <Typography.Paragraph type="secondary">{t(step === 'ack' ? 'deviceEvents.modal.ackHint' : 'deviceEvents.modal.clearHint')}</Typography.Paragraph>
      <Input.TextArea
        value={comment}
        onChange={setComment}
        maxLength={500}
        showWordLimit
        autoSize={{ minRows: 3, maxRows: 6 }}
        placeholder={t('deviceEvents.modal.comment')}
        data-testid="event-comment"
      />
    </Modal>
  );
}
