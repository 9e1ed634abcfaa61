import { useEffect } from 'react';
import { DatePicker, Form, Grid, Input, Select } from '@arco-design/web-react';
import { userLogActions, userLogResults, type UserLogQuery } from '@mowerline/contract';
import { FilterActions } from '../components/FilterActions.tsx';
import { useT } from '../locale/i18n.ts';
import { logActionLabel } from './labels.ts';

export type UserLogFilterValues = Partial<Pick<UserLogQuery, 'userId' | 'email' | 'sn' | 'action' | 'result' | 'from' | 'to'>>;

interface FormValues {
  user?: string;
  sn?: string;
  action?: UserLogQuery['action'];
  result?: UserLogQuery['result'];
  range?: Date[];
}

/** The user field takes an account's e-mail or its number (what the user list and the CSV show). */
function toFilter(v: FormValues): UserLogFilterValues {
  const user = v.user?.trim() ?? '';
  const [from, to] = v.range ?? [];
  return {
    userId: /^\d+$/.test(user) ? Number(user) : undefined,
    email: user && !/^\d+$/.test(user) ? user : undefined,
    sn: v.sn?.trim().toUpperCase() || undefined,
    action: v.action,
    result: v.result,
    from: from ? new Date(from).toISOString() : undefined,
    to: to ? new Date(to).toISOString() : undefined,
  };
}

function toForm(f: UserLogFilterValues): FormValues {
  return {
    user: f.email ?? (f.userId ? String(f.userId) : undefined),
    sn: f.sn,
    action: f.action,
    result: f.result,
    range: f.from && f.to ? [new Date(f.from), new Date(f.to)] : undefined,
  };
}

/** User (e-mail or id), SN, action, result and time range; applied on Search. */
export function UserLogFilters({ value, onChange }: { value: UserLogFilterValues; onChange(next: UserLogFilterValues): void }) {
  const t = useT();
  const [form] = Form.useForm<FormValues>();
  useEffect(() => form.setFieldsValue(toForm(value)), [form, value]);
  const submit = () => void form.validate().then((values) => onChange(toFilter(values)), () => {});
  const col = { xs: 24, sm: 12, lg: 8 };
  return (
    <div className="device-filters">
      <Form id="user-log-filter" form={form} layout="horizontal" labelCol={{ span: 7 }} wrapperCol={{ span: 17 }} labelAlign="left" onSubmit={submit}>
        <Grid.Row gutter={16}>
          <Grid.Col {...col}>
            <Form.Item label={t('userLog.field.user')} field="user" rules={[{ match: /^(\d+|[^\s@]+@[^\s@]+)?$/, message: t('userLog.rule.user') }]}>
              <Input allowClear maxLength={254} placeholder={t('userLog.filter.user')} onPressEnter={submit} />
            </Form.Item>
          </Grid.Col>
          <Grid.Col {...col}>
            <Form.Item label={t('userLog.field.sn')} field="sn">
              <Input allowClear maxLength={32} placeholder={t('userLog.filter.sn')} onPressEnter={submit} />
            </Form.Item>
          </Grid.Col>
          <Grid.Col {...col}>
            <Form.Item label={t('userLog.field.action')} field="action">
              <Select allowClear showSearch placeholder={t('userLog.filter.all')} options={userLogActions.map((a) => ({ value: a, label: logActionLabel(t, a) }))} />
            </Form.Item>
          </Grid.Col>
          <Grid.Col {...col}>
            <Form.Item label={t('userLog.field.result')} field="result">
              <Select allowClear placeholder={t('userLog.filter.all')} options={userLogResults.map((r) => ({ value: r, label: t(`userLog.result.${r}`) }))} />
            </Form.Item>
          </Grid.Col>
          <Grid.Col {...col}>
            <Form.Item label={t('userLog.field.time')} field="range">
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
