import { useEffect } from 'react';
import { DatePicker, Form, Grid, Input, Select } from '@arco-design/web-react';
import { appUserStatuses, type EndUserFilter } from '@mowerline/contract';
import { FilterActions } from '../components/FilterActions.tsx';
import { useLocaleStore, useT } from '../locale/i18n.ts';
import { useUsersByCountry } from './end-users.api.ts';
import { countryName } from './labels.ts';

export type EndUserFilterValues = Partial<EndUserFilter>;

interface FormValues {
  keyword?: string;
  country?: string;
  city?: string;
  status?: EndUserFilter['status'];
  registered?: Date[];
  hasDevice?: 'true' | 'false';
}

function toFilter(v: FormValues): EndUserFilterValues {
  const text = (s?: string) => s?.trim() || undefined;
  const [from, to] = v.registered ?? [];
  return {
    keyword: text(v.keyword),
    country: v.country,
    city: text(v.city),
    status: v.status,
    registeredFrom: from ? new Date(from).toISOString() : undefined,
    registeredTo: to ? new Date(to).toISOString() : undefined,
    hasDevice: v.hasDevice === undefined ? undefined : v.hasDevice === 'true',
  };
}

function toForm(f: EndUserFilterValues): FormValues {
  return {
    ...f,
    hasDevice: f.hasDevice === undefined ? undefined : f.hasDevice ? 'true' : 'false',
    registered: f.registeredFrom && f.registeredTo ? [new Date(f.registeredFrom), new Date(f.registeredTo)] : undefined,
  };
}

/** Keyword (e-mail or name prefix), country, city, status, registration range and has-device; applied on Search. */
export function EndUserFilters({ value, onChange }: { value: EndUserFilterValues; onChange(next: EndUserFilterValues): void }) {
  const t = useT();
  const locale = useLocaleStore((s) => s.locale);
  const [form] = Form.useForm<FormValues>();
  // The countries users live in, most users first: what the country filter can find.
  const countries = useUsersByCountry('home', 300);
  useEffect(() => form.setFieldsValue(toForm(value)), [form, value]);
  const submit = () => onChange(toFilter(form.getFieldsValue()));
  const col = { xs: 24, sm: 12, lg: 8 };
  return (
    <div className="device-filters end-user-filters">
      <Form id="end-user-filter" form={form} layout="horizontal" labelCol={{ span: 7 }} wrapperCol={{ span: 17 }} labelAlign="left" onSubmit={submit}>
        <Grid.Row gutter={16}>
          <Grid.Col {...col}>
            <Form.Item label={t('endUser.field.keyword')} field="keyword">
              <Input allowClear maxLength={254} placeholder={t('endUser.filter.keyword')} onPressEnter={submit} />
            </Form.Item>
          </Grid.Col>
          <Grid.Col {...col}>
            <Form.Item label={t('endUser.field.country')} field="country">
              <Select
                allowClear
                showSearch
                placeholder={t('endUser.filter.all')}
                loading={countries.isLoading}
                notFoundContent={t(countries.isError ? 'endUser.loadFailed' : 'endUser.filter.noCountry')}
                filterOption={(input, option) => String((option as { props?: { extra?: string } }).props?.extra ?? '').toLowerCase().includes(input.toLowerCase())}
                options={(countries.data?.list ?? []).map((c) => {
                  const name = c.name[locale] || countryName(c.country, locale);
                  return { value: c.country, label: `${name} (${c.country})`, extra: `${name} ${c.country}` };
                })}
              />
            </Form.Item>
          </Grid.Col>
          <Grid.Col {...col}>
            <Form.Item label={t('endUser.field.city')} field="city">
              <Input allowClear maxLength={128} placeholder={t('endUser.filter.city')} onPressEnter={submit} />
            </Form.Item>
          </Grid.Col>
          <Grid.Col {...col}>
            <Form.Item label={t('endUser.field.status')} field="status">
              <Select allowClear placeholder={t('endUser.filter.all')} options={appUserStatuses.map((s) => ({ value: s, label: t(`endUser.status.${s}`) }))} />
            </Form.Item>
          </Grid.Col>
          <Grid.Col {...col}>
            <Form.Item label={t('endUser.field.registered')} field="registered">
              <DatePicker.RangePicker showTime style={{ width: '100%' }} />
            </Form.Item>
          </Grid.Col>
          <Grid.Col {...col}>
            <Form.Item label={t('endUser.field.hasDevice')} field="hasDevice">
              <Select
                allowClear
                placeholder={t('endUser.filter.all')}
                options={[
                  { value: 'true', label: t('endUser.filter.withDevice') },
                  { value: 'false', label: t('endUser.filter.withoutDevice') },
                ]}
              />
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
