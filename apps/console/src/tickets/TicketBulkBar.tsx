import { useState } from 'react';
import { Button, Message, Popconfirm, Select, Space, Typography } from '@arco-design/web-react';
import { IconCheckCircle, IconUserAdd } from '@arco-design/web-react/icon';
import { useT } from '../locale/i18n.ts';
import { useAssignees, useBulkTickets } from './tickets.api.ts';

/** An assignee choice that can also mean "nobody". */
const NOBODY = 0;

/** Bulk assign and bulk close of the selected rows (close asks first); the answer says how many were skipped. */
export function TicketBulkBar({ selected, onDone }: { selected: number[]; onDone(): void }) {
  const t = useT();
  const assignees = useAssignees();
  const bulk = useBulkTickets();
  const [assignee, setAssignee] = useState<number>();
  if (selected.length === 0) return null;

  const report = (result: { updated: number[]; skipped: number[] }) => {
    if (result.skipped.length > 0) Message.warning(t('ticket.bulk.doneSkipped', { updated: result.updated.length, skipped: result.skipped.length }));
    else Message.success(t('ticket.bulk.done', { updated: result.updated.length }));
    setAssignee(undefined);
    onDone();
  };

  return (
    <div className="ticket-bulk" data-testid="ticket-bulk" role="region" aria-label={t('ticket.bulk.region')}>
      <Typography.Text>{t('ticket.bulk.selected', { count: selected.length })}</Typography.Text>
      <Space wrap>
        <Select
          size="small"
          style={{ width: 220 }}
          placeholder={t('ticket.bulk.assignTo')}
          aria-label={t('ticket.bulk.assignTo')}
          value={assignee}
          onChange={setAssignee}
          options={[{ value: NOBODY, label: t('ticket.unassigned') }, ...(assignees.data ?? []).map((a) => ({ value: a.id, label: `${a.name} (${a.username})` }))]}
        />
        <Button
          size="small"
          icon={<IconUserAdd />}
          disabled={assignee === undefined}
          loading={bulk.isPending && bulk.variables?.action === 'assign'}
          onClick={() => void bulk.mutateAsync({ action: 'assign', ids: selected, assigneeId: assignee === NOBODY ? null : assignee! }).then(report, () => {})}
        >
          {t('ticket.bulk.assign')}
        </Button>
        <Popconfirm
          title={t('ticket.bulk.closeConfirm', { count: selected.length })}
          okText={t('ticket.bulk.close')}
          onOk={() => bulk.mutateAsync({ action: 'close', ids: selected }).then(report, () => {})}
        >
          <Button size="small" status="warning" icon={<IconCheckCircle />} loading={bulk.isPending && bulk.variables?.action === 'close'}>
            {t('ticket.bulk.close')}
          </Button>
        </Popconfirm>
        <Button size="small" type="text" onClick={onDone}>
          {t('ticket.bulk.clear')}
        </Button>
      </Space>
    </div>
  );
}
