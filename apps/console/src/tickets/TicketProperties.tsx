import { Button, Descriptions, InputTag, Message, Select, Space } from '@arco-design/web-react';
import { IconUser } from '@arco-design/web-react/icon';
import { TICKET_MAX_TAGS, ticketPriorities, type TicketDetail, type TicketUpdateBody } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { useSession } from '../session/session.store.ts';
import { useAssignees, useUpdateTicket } from './tickets.api.ts';

const NOBODY = 0;

/** Priority, assignee (or "assign to me") and tags, each saved as soon as it changes. */
export function TicketProperties({ ticket }: { ticket: TicketDetail }) {
  const t = useT();
  const me = useSession((s) => s.user?.id);
  const assignees = useAssignees();
  const update = useUpdateTicket();
  // mutateAsync: its answer arrives even when a refetch re-renders the page meanwhile; failures toast through the request policy.
  const save = (body: TicketUpdateBody) => void update.mutateAsync({ id: ticket.id, body }).then(() => Message.success(t('ticket.saved')), () => {});
  const assigneeOptions = [{ value: NOBODY, label: t('ticket.unassigned') }, ...(assignees.data ?? []).map((a) => ({ value: a.id, label: `${a.name} (${a.username})` }))];
  // The current assignee stays choosable even when the list no longer holds them (disabled since).
  if (ticket.assignee && !assigneeOptions.some((o) => o.value === ticket.assignee!.id)) assigneeOptions.push({ value: ticket.assignee.id, label: ticket.assignee.name });
  return (
    <div data-testid="ticket-properties">
    <Descriptions
      column={1}
      layout="vertical"
      size="small"
      data={[
        {
          label: <label htmlFor="ticket-priority">{t('ticket.field.priority')}</label>,
          value: (
            <Select
              id="ticket-priority"
              aria-label={t('ticket.field.priority')}
              value={ticket.priority}
              onChange={(priority: TicketDetail['priority']) => save({ priority })}
              options={ticketPriorities.map((p) => ({ value: p, label: t(`ticket.priority.${p}`) }))}
            />
          ),
        },
        {
          label: <label htmlFor="ticket-assignee">{t('ticket.field.assignee')}</label>,
          value: (
            <Space style={{ width: '100%' }} className="ticket-assignee">
              <Select
                id="ticket-assignee"
                aria-label={t('ticket.field.assignee')}
                showSearch
                style={{ minWidth: 180 }}
                value={ticket.assignee?.id ?? NOBODY}
                loading={assignees.isLoading}
                onChange={(id: number) => save({ assigneeId: id === NOBODY ? null : id })}
                options={assigneeOptions}
              />
              {me && ticket.assignee?.id !== me ? (
                <Button size="small" icon={<IconUser />} onClick={() => save({ assigneeId: me })}>
                  {t('ticket.do.assignMe')}
                </Button>
              ) : null}
            </Space>
          ),
        },
        {
          label: t('ticket.field.tags'),
          value: (
            <InputTag
              aria-label={t('ticket.field.tags')}
              allowClear
              saveOnBlur
              value={ticket.tags}
              placeholder={t('ticket.tags.placeholder')}
              validate={(tag: string, values: unknown[]) => !!tag.trim() && tag.trim().length <= 32 && values.length < TICKET_MAX_TAGS && !values.includes(tag.trim())}
              onChange={(tags: unknown[]) => save({ tags: tags.map((v) => String(typeof v === 'object' && v ? (v as { value: unknown }).value : v).trim()) })}
            />
          ),
        },
      ]}
    />
    </div>
  );
}
