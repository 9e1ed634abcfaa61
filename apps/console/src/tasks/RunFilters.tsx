import { useEffect } from 'react';
import { DatePicker, Form, Grid, Input, Select } from '@arco-design/web-react';
import { runResults, runTriggers, type RunFilter } from '@mowerline/contract';
import { FilterActions } from '../components/FilterActions.tsx';
import { useT } from '../locale/i18n.ts';

export type RunFilterValues = Partial<Pick<RunFilter, 'sn' | 'owner' | 'trigger' | 'result' | 'faultCode' | 'from' | 'to'>>;

interface FormValues extends Omit<RunFilterValues, 'from' | 'to'> {
  range?: Date[];
}

function toFilter(v: FormValues): RunFilterValues {
  const text = (s?: string) => s?.trim() || undefined;
  const [from, to] = v.range ?? [];
  return {
    sn: text(v.sn)?.toUpperCase(),
    owner: text(v.owner),
    trigger: v.trigger,
    result: v.result,
    faultCode: text(v.faultCode)?.toUpperCase(),
    from: from ? new Date(from).toISOString() : undefined,
    to: to ? new Date(to).toISOString() : undefined,
  };
}

const toForm = ({ from, to, ...rest }: RunFilterValues): FormValues => ({ ...rest, range: from && to ? [new Date(from), new Date(to)] : undefined });

/** SN, owner, trigger, result, fault code and start-time range; applied on Search. */
export function RunFilters({ value, onChange }: { value: RunFilterValues; onChange(next: RunFilterValues): void }) {
  const t = useT();
  const [form] = Form.useForm<FormValues>();
  useEffect(() => form.setFieldsValue(toForm(value)), [form, value]);
  const submit = () => onChange(toFilter(form.getFieldsValue()));
  const col = { xs: 24, sm: 12, lg: 8 };
  return (
    <div className="device-filters">
      <Form id="task-run-filter" form={form} layout="horizontal" labelCol={{ span: 7 }} wrapperCol={{ span: 17 }} labelAlign="left" onSubmit={submit}>
        <Grid.Row gutter={16}>
          <Grid.Col {...col}>
            <Form.Item label={t('task.field.sn')} field="sn">
              <Input allowClear maxLength={32} placeholder={t('task.filter.snHint')} onPressEnter={submit} />
            </Form.Item>
          </Grid.Col>
          <Grid.Col {...col}>
            <Form.Item label={t('task.field.owner')} field="owner">
              <Input allowClear maxLength={254} placeholder={t('task.filter.ownerHint')} onPressEnter={submit} />
            </Form.Item>
          </Grid.Col>
          <Grid.Col {...col}>
            <Form.Item label={t('taskRun.field.trigger')} field="trigger">
              <Select allowClear placeholder={t('task.all')} options={runTriggers.map((v) => ({ value: v, label: t(`task.trigger.${v}`) }))} />
            </Form.Item>
          </Grid.Col>
          <Grid.Col {...col}>
            <Form.Item label={t('taskRun.field.result')} field="result">
              <Select allowClear placeholder={t('task.all')} options={runResults.map((v) => ({ value: v, label: t(`task.result.${v}`) }))} />
            </Form.Item>
          </Grid.Col>
          <Grid.Col {...col}>
            <Form.Item label={t('taskRun.field.fault')} field="faultCode">
              <Input allowClear maxLength={48} placeholder={t('taskRun.filter.fault')} onPressEnter={submit} />
            </Form.Item>
          </Grid.Col>
          <Grid.Col {...col}>
            <Form.Item label={t('task.field.timeRange')} field="range">
              <DatePicker.RangePicker showTime style={{ width: '100%' }} />
            </Form.Item>
          </Grid.Col>
        </Grid.Row>
        <FilterActions
          onReset={() => {
            form.resetFields();
            onChange({});
          }}
        />
      </Form>
    </div>
  );
}
