import { useEffect } from 'react';
import { DatePicker, Form, Grid, Input, Select } from '@arco-design/web-react';
import { ticketCategories, ticketPriorities, ticketStatuses } from '@mowerline/contract';
import { FilterActions } from '../components/FilterActions.tsx';
import { useT } from '../locale/i18n.ts';
import { useAssignees } from './tickets.api.ts';
import type { TicketFilterValues } from './ticket-filters.ts';

interface FormValues {
  keyword?: string;
  status?: TicketFilterValues['status'];
  priority?: TicketFilterValues['priority'];
  category?: TicketFilterValues['category'];
  assigneeId?: number;
  sn?: string;
  userId?: string;
  created?: Date[];
  slaBreached?: 'true' | 'false';
}

function toFilter(v: FormValues, view: TicketFilterValues['view']): TicketFilterValues {
  const text = (s?: string) => s?.trim() || undefined;
  const [from, to] = v.created ?? [];
  const userId = Number(v.userId);
  return {
    view,
    keyword: text(v.keyword),
    status: v.status,
    priority: v.priority,
    category: v.category,
    assigneeId: v.assigneeId,
    sn: text(v.sn)?.toUpperCase(),
    userId: Number.isInteger(userId) && userId > 0 ? userId : undefined,
    createdFrom: from ? new Date(from).toISOString() : undefined,
    createdTo: to ? new Date(to).toISOString() : undefined,
    slaBreached: v.slaBreached === undefined ? undefined : v.slaBreached === 'true',
  };
}

function toForm(f: TicketFilterValues): FormValues {
  return {
    ...f,
    userId: f.userId ? String(f.userId) : undefined,
    slaBreached: f.slaBreached === undefined ? undefined : f.slaBreached ? 'true' : 'false',
    created: f.createdFrom && f.createdTo ? [new Date(f.createdFrom), new Date(f.createdTo)] : undefined,
  };
}

/** Keyword (full text), status, priority, category, assignee, SN, user, created range and SLA breached; applied on Search. */
export function TicketFilters({ value, onChange }: { value: TicketFilterValues; onChange(next: TicketFilterValues): void }) {
  const t = useT();
  const [form] = Form.useForm<FormValues>();
  const assignees = useAssignees();
  useEffect(() => {
    form.resetFields();
    form.setFieldsValue(toForm(value));
  }, [form, value]);
  const submit = () => onChange(toFilter(form.getFieldsValue(), value.view));
  const col = { xs: 24, sm: 12, lg: 8, xxl: 6 };
  const all = t('ticket.filter.all');
  return (
    <div className="device-filters ticket-filters">
      <Form id="ticket-filter" form={form} layout="horizontal" labelCol={{ span: 8 }} wrapperCol={{ span: 16 }} labelAlign="left" onSubmit={submit}>
        <Grid.Row gutter={16}>
          <Grid.Col {...col}>
            <Form.Item label={t('ticket.field.keyword')} field="keyword">
              <Input allowClear maxLength={200} placeholder={t('ticket.filter.keyword')} onPressEnter={submit} />
            </Form.Item>
          </Grid.Col>
          <Grid.Col {...col}>
            <Form.Item label={t('ticket.field.status')} field="status">
              <Select allowClear placeholder={all} options={ticketStatuses.map((s) => ({ value: s, label: t(`ticket.status.${s}`) }))} />
            </Form.Item>
          </Grid.Col>
          <Grid.Col {...col}>
            <Form.Item label={t('ticket.field.priority')} field="priority">
              <Select allowClear placeholder={all} options={ticketPriorities.map((p) => ({ value: p, label: t(`ticket.priority.${p}`) }))} />
            </Form.Item>
          </Grid.Col>
          <Grid.Col {...col}>
            <Form.Item label={t('ticket.field.category')} field="category">
              <Select allowClear placeholder={all} options={ticketCategories.map((c) => ({ value: c, label: t(`ticket.category.${c}`) }))} />
            </Form.Item>
          </Grid.Col>
          <Grid.Col {...col}>
            <Form.Item label={t('ticket.field.assignee')} field="assigneeId">
              <Select
                allowClear
                showSearch
                placeholder={all}
                loading={assignees.isLoading}
                filterOption={(input, option) => String((option as { props?: { children?: unknown } }).props?.children ?? '').toLowerCase().includes(input.toLowerCase())}
                options={(assignees.data ?? []).map((a) => ({ value: a.id, label: `${a.name} (${a.username})` }))}
              />
            </Form.Item>
          </Grid.Col>
          <Grid.Col {...col}>
            <Form.Item label={t('ticket.field.sn')} field="sn">
              <Input allowClear maxLength={32} placeholder={t('ticket.filter.sn')} onPressEnter={submit} />
            </Form.Item>
          </Grid.Col>
          <Grid.Col {...col}>
            <Form.Item label={t('ticket.field.userId')} field="userId">
              <Input allowClear maxLength={10} inputMode="numeric" placeholder={t('ticket.filter.userId')} onPressEnter={submit} />
            </Form.Item>
          </Grid.Col>
          <Grid.Col {...col}>
            <Form.Item label={t('ticket.field.created')} field="created">
              <DatePicker.RangePicker showTime style={{ width: '100%' }} />
            </Form.Item>
          </Grid.Col>
          <Grid.Col {...col}>
            <Form.Item label={t('ticket.field.slaBreached')} field="slaBreached">
              <Select
                allowClear
                placeholder={all}
                options={[
                  { value: 'true', label: t('ticket.filter.breached') },
                  { value: 'false', label: t('ticket.filter.notBreached') },
                ]}
              />
            </Form.Item>
          </Grid.Col>
        </Grid.Row>
        <FilterActions
          onReset={() => {
            form.resetFields();
            onChange({ view: value.view });
          }}
        />
      </Form>
    </div>
  );
}
