import { useEffect } from 'react';
import { Form, Grid, Input, Select } from '@arco-design/web-react';
import { syncStates, type ScheduleListQuery } from '@mowerline/contract';
import { FilterActions } from '../components/FilterActions.tsx';
import { useT } from '../locale/i18n.ts';

export type ScheduleFilterValues = Partial<Pick<ScheduleListQuery, 'sn' | 'owner' | 'model' | 'enabled' | 'syncState'>>;

interface FormValues {
  sn?: string;
  owner?: string;
  model?: string;
  enabled?: 'true' | 'false';
  syncState?: ScheduleListQuery['syncState'];
}

function toFilter(v: FormValues): ScheduleFilterValues {
  const text = (s?: string) => s?.trim() || undefined;
  return {
    sn: text(v.sn)?.toUpperCase(),
    owner: text(v.owner),
    model: text(v.model),
    enabled: v.enabled === undefined ? undefined : v.enabled === 'true',
    syncState: v.syncState,
  };
}

const toForm = (f: ScheduleFilterValues): FormValues => ({ ...f, enabled: f.enabled === undefined ? undefined : f.enabled ? 'true' : 'false' });

/** SN, owner (e-mail prefix), model, enabled and sync state; applied on Search. */
export function ScheduleFilters({ value, onChange }: { value: ScheduleFilterValues; onChange(next: ScheduleFilterValues): void }) {
  const t = useT();
  const [form] = Form.useForm<FormValues>();
  useEffect(() => form.setFieldsValue(toForm(value)), [form, value]);
  const submit = () => onChange(toFilter(form.getFieldsValue()));
  const col = { xs: 24, sm: 12, lg: 8 };
  return (
    <div className="device-filters">
      <Form id="task-schedule-filter" form={form} layout="horizontal" labelCol={{ span: 7 }} wrapperCol={{ span: 17 }} labelAlign="left" onSubmit={submit}>
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
            <Form.Item label={t('task.field.model')} field="model">
              <Input allowClear maxLength={64} placeholder={t('task.filter.modelHint')} onPressEnter={submit} />
            </Form.Item>
          </Grid.Col>
          <Grid.Col {...col}>
            <Form.Item label={t('taskSchedule.field.enabled')} field="enabled">
              <Select
                allowClear
                placeholder={t('task.all')}
                options={[
                  { value: 'true', label: t('taskSchedule.filter.enabled') },
                  { value: 'false', label: t('taskSchedule.filter.disabled') },
                ]}
              />
            </Form.Item>
          </Grid.Col>
          <Grid.Col {...col}>
            <Form.Item label={t('taskSchedule.field.sync')} field="syncState">
              <Select allowClear placeholder={t('task.all')} options={syncStates.map((s) => ({ value: s, label: t(`task.sync.${s}`) }))} />
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
