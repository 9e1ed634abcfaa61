import { useEffect } from 'react';
import { DatePicker, Form, Grid, Input, Select } from '@arco-design/web-react';
import { eventCatalogue, eventSeverities, eventStatuses, type EventListQuery } from '@mowerline/contract';
import { useLocaleStore, useT } from '../locale/i18n.ts';
import { FilterActions } from '../components/FilterActions.tsx';

export type EventFilterValues = Partial<Pick<EventListQuery, 'sn' | 'code' | 'severity' | 'status' | 'from' | 'to'>>;

interface FormValues extends Omit<EventFilterValues, 'from' | 'to'> {
  range?: Date[];
}

/** SN, code (the catalogue, or any code a device sent), severity, status and time range. */
export function EventFilters({ value, onChange }: { value: EventFilterValues; onChange(next: EventFilterValues): void }) {
  const t = useT();
  const locale = useLocaleStore((s) => s.locale);
  const [form] = Form.useForm<FormValues>();
  useEffect(() => {
    form.setFieldsValue({ ...value, range: value.from && value.to ? [new Date(value.from), new Date(value.to)] : undefined });
  }, [form, value]);
  const submit = () => {
    const v = form.getFieldsValue();
    const [from, to] = v.range ?? [];
    onChange({
      sn: v.sn?.trim().toUpperCase() || undefined,
      code: v.code?.trim().toUpperCase() || undefined,
      severity: v.severity,
      status: v.status,
      from: from ? new Date(from).toISOString() : undefined,
      to: to ? new Date(to).toISOString() : undefined,
    });
  };
  const col = { xs: 24, sm: 12, lg: 8 };
  return (
    <Form form={form} className="device-filters" labelCol={{ span: 7 }} wrapperCol={{ span: 17 }} labelAlign="left" onSubmit={submit}>
      <Grid.Row gutter={16}>
        <Grid.Col {...col}>
          <Form.Item label={t('deviceEvents.field.sn')} field="sn">
            <Input allowClear maxLength={32} placeholder={t('deviceEvents.filter.sn')} onPressEnter={submit} />
          </Form.Item>
        </Grid.Col>
        <Grid.Col {...col}>
          <Form.Item label={t('deviceEvents.field.code')} field="code">
            <Select
              allowClear
              showSearch
              allowCreate
              placeholder={t('deviceEvents.filter.all')}
              options={Object.entries(eventCatalogue).map(([code, entry]) => ({ value: code, label: `${entry[locale]} (${code})` }))}
            />
          </Form.Item>
        </Grid.Col>
        <Grid.Col {...col}>
          <Form.Item label={t('deviceEvents.field.severity')} field="severity">
            <Select allowClear placeholder={t('deviceEvents.filter.all')} options={eventSeverities.map((s) => ({ value: s, label: t(`devices.severity.${s}`) }))} />
          </Form.Item>
        </Grid.Col>
        <Grid.Col {...col}>
          <Form.Item label={t('deviceEvents.field.status')} field="status">
            <Select allowClear placeholder={t('deviceEvents.filter.all')} options={eventStatuses.map((s) => ({ value: s, label: t(`devices.eventStatus.${s}`) }))} />
          </Form.Item>
        </Grid.Col>
        <Grid.Col {...col}>
          <Form.Item label={t('deviceEvents.field.range')} field="range">
            <DatePicker.RangePicker showTime style={{ width: '100%' }} />
          </Form.Item>
        </Grid.Col>
        <Grid.Col {...col}>
          <FilterActions
            onReset={() => {
              form.resetFields();
              onChange({});
            }}
          />
        </Grid.Col>
      </Grid.Row>
    </Form>
  );
}
