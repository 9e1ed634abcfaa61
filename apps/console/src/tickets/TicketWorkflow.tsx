import { useState } from 'react';
import { Button, Input, Message, Modal, Popconfirm, Space, Typography } from '@arco-design/web-react';
import { IconBranch, IconCheckCircle, IconClose, IconExclamationCircle, IconPause, IconPlayArrow, IconRefresh } from '@arco-design/web-react/icon';
import { useNavigate } from 'react-router';
import type { TicketDetail, TicketStatus, TicketSummary } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { ticketNumber } from './labels.ts';
import { findTicketByNumber, useMergeTicket, useUpdateTicket } from './tickets.api.ts';
import { detailPath } from './TicketTable.tsx';

type Step = { to: TicketStatus; key: string; icon: React.ReactNode };

/** The steps each status offers (new → open → pending customer → resolved → closed, with reopen); the server has the last word. */
function stepsFrom(status: TicketStatus): Step[] {
  const open = { to: 'open', key: 'open', icon: <IconPlayArrow /> } as const;
  const pending = { to: 'pending_customer', key: 'pending', icon: <IconPause /> } as const;
  const resolve = { to: 'resolved', key: 'resolve', icon: <IconCheckCircle /> } as const;
  const close = { to: 'closed', key: 'close', icon: <IconClose /> } as const;
  const reopen = { to: 'open', key: 'reopen', icon: <IconRefresh /> } as const;
  switch (status) {
    case 'new':
      return [open, pending, resolve, close];
    case 'open':
      return [pending, resolve, close];
    case 'pending_customer':
      return [open, resolve, close];
    case 'resolved':
      return [reopen, close];
    case 'closed':
    case 'spam':
      return [reopen];
  }
}

/** Merge this ticket into another, found by the number the agent types; a second step confirms what will happen. */
function MergeModal({ ticket, visible, onClose }: { ticket: TicketDetail; visible: boolean; onClose(): void }) {
  const t = useT();
  const navigate = useNavigate();
  const merge = useMergeTicket();
  const [number, setNumber] = useState('');
  const [target, setTarget] = useState<TicketSummary>();
  const [problem, setProblem] = useState<string>();
  const [finding, setFinding] = useState(false);
  const reset = () => {
    setNumber('');
    setTarget(undefined);
    setProblem(undefined);
  };

  const find = async () => {
    const n = Number(number.trim().replace(/^#/, ''));
    if (!Number.isInteger(n) || n <= 0) return setProblem(t('ticket.merge.badNumber'));
    if (n === ticket.number) return setProblem(t('ticket.merge.self'));
    setFinding(true);
    try {
      const found = await findTicketByNumber(n);
      if (!found) setProblem(t('ticket.merge.notFound', { number: ticketNumber(n) }));
      else if (found.user.id !== ticket.user.id) setProblem(t('ticket.merge.otherUser', { number: ticketNumber(n) }));
      else setTarget(found);
    } catch {
      // The request policy has shown the error.
    } finally {
      setFinding(false);
    }
  };

  const confirm = () =>
    void merge.mutateAsync({ id: ticket.id, intoId: target!.id }).then(
      () => {
        Message.success(t('ticket.merge.done', { from: ticketNumber(ticket.number), into: ticketNumber(target!.number) }));
        const into = target!.id;
        reset();
        onClose();
        navigate(detailPath(into));
      },
      () => {},
    );

  return (
    <Modal
      title={t('ticket.merge.title', { number: ticketNumber(ticket.number) })}
      visible={visible}
      onCancel={() => {
        reset();
        onClose();
      }}
      okText={target ? t('ticket.merge.confirm') : t('ticket.merge.find')}
      okButtonProps={{ status: target ? 'danger' : undefined, disabled: !number.trim() }}
      confirmLoading={finding || merge.isPending}
      onOk={() => (target ? confirm() : void find())}
      data-testid="ticket-merge"
      unmountOnExit
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <label htmlFor="ticket-merge-number">{t('ticket.merge.numberLabel')}</label>
        <Input
          id="ticket-merge-number"
          value={number}
          onChange={(v) => {
            setNumber(v);
            setTarget(undefined);
            setProblem(undefined);
          }}
          placeholder="#1234"
          maxLength={12}
          onPressEnter={() => (target ? confirm() : void find())}
        />
        {problem ? (
          <Typography.Text type="error" role="alert">
            {problem}
          </Typography.Text>
        ) : null}
        {target ? (
          <Typography.Paragraph className="ticket-merge-confirm" data-testid="ticket-merge-confirm">
            {t('ticket.merge.explain', { from: ticketNumber(ticket.number), into: ticketNumber(target.number), title: target.title })}
          </Typography.Paragraph>
        ) : null}
      </Space>
    </Modal>
  );
}

/** The status buttons of the detail, spam after a confirmation, and merge; a merged ticket stays closed. */
export function TicketWorkflow({ ticket }: { ticket: TicketDetail }) {
  const t = useT();
  const update = useUpdateTicket();
  const [merging, setMerging] = useState(false);
  const setStatus = (status: TicketStatus, key: string) =>
    update.mutateAsync({ id: ticket.id, body: { status } }).then(
      () => Message.success(t(`ticket.workflow.done.${key}`, { number: ticketNumber(ticket.number) })),
      () => {},
    );
  const active = ticket.status !== 'closed' && ticket.status !== 'spam';
  return (
    <div className="ticket-workflow" data-testid="ticket-workflow">
      <Space wrap>
        {(ticket.mergedIntoId ? [] : stepsFrom(ticket.status)).map((step) => (
          <Button
            key={step.key}
            icon={step.icon}
            type={step.to === 'resolved' ? 'primary' : 'secondary'}
            loading={update.isPending && update.variables?.body.status === step.to}
            onClick={() => void setStatus(step.to, step.key)}
            data-step={step.key}
          >
            {t(`ticket.workflow.${step.key}`)}
          </Button>
        ))}
        {active ? (
          <>
            <Popconfirm title={t('ticket.workflow.spamConfirm', { number: ticketNumber(ticket.number) })} okText={t('ticket.workflow.spam')} onOk={() => setStatus('spam', 'spam')}>
              <Button status="danger" icon={<IconExclamationCircle />} data-step="spam">
                {t('ticket.workflow.spam')}
              </Button>
            </Popconfirm>
            <Button icon={<IconBranch />} onClick={() => setMerging(true)} data-step="merge">
              {t('ticket.workflow.merge')}
            </Button>
          </>
        ) : null}
      </Space>
      <MergeModal ticket={ticket} visible={merging} onClose={() => setMerging(false)} />
    </div>
  );
}
