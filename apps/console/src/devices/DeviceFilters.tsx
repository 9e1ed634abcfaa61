import { useEffect } from 'react';
import { DatePicker, Form, Grid, Input, Select } from '@arco-design/web-react';
import { FIRMWARE_VERSION_PATTERN, deviceStates, type DeviceFilter } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { FilterActions } from '../components/FilterActions.tsx';
import { useDeviceGroups } from '../device-groups/device-groups.api.ts';
import { useDeviceRegions, useProductModels } from './devices.api.ts';
import { regionLabel } from './region-label.ts';

export type DeviceFilterValues = Partial<Omit<DeviceFilter, 'sort'>>;

interface FormValues {
  sn?: string;
  modelId?: number;
  firmware?: string;
  online?: 'true' | 'false';
  state?: DeviceFilter['state'];
  owner?: string;
  region?: string;
  lastSeen?: Date[];
  /** `ring:beta, site`: each a tag condition (value, or set at all). */
  tags?: string;
  groupId?: number;
}

function tagList(text?: string): string[] | undefined {
  const items = (text ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  return items.length > 0 ? items : undefined;
}

function toFilter(v: FormValues): DeviceFilterValues {
  const text = (s?: string) => s?.trim() || undefined;
  const [from, to] = v.lastSeen ?? [];
  return {
    sn: text(v.sn)?.toUpperCase(),
    modelId: v.modelId,
    firmware: text(v.firmware),
    online: v.online === undefined ? undefined : v.online === 'true',
    state: v.state,
    owner: text(v.owner),
    region: text(v.region)?.toLowerCase(),
    lastSeenFrom: from ? new Date(from).toISOString() : undefined,
    lastSeenTo: to ? new Date(to).toISOString() : undefined,
    tag: tagList(v.tags),
    groupId: v.groupId,
  };
}

function toForm(f: DeviceFilterValues): FormValues {
  return {
    ...f,
    online: f.online === undefined ? undefined : f.online ? 'true' : 'false',
    lastSeen: f.lastSeenFrom && f.lastSeenTo ? [new Date(f.lastSeenFrom), new Date(f.lastSeenTo)] : undefined,
    tags: f.tag?.join(', '),
  };
}

/** SN prefix, model, firmware, online, state, owner, region and last-seen range; applied on Search. */
export function DeviceFilters({ value, onChange }: { value: DeviceFilterValues; onChange(next: DeviceFilterValues): void }) {
  const t = useT();
  const [form] = Form.useForm<FormValues>();
  const models = useProductModels();
  const regions = useDeviceRegions();
  const groups = useDeviceGroups({ pageSize: 100 });
  useEffect(() => form.setFieldsValue(toForm(value)), [form, value]);
  // The form's own rules first: a bad field is named next to it, in the reader's language.
  const submit = () => {
    form.validate().then((values) => onChange(toFilter(values)), () => {});
  };
  const col = { xs: 24, sm: 12, lg: 8, xxl: 6 };
  return (
    <div className="device-filters">
      <Form form={form} layout="horizontal" labelCol={{ span: 7 }} wrapperCol={{ span: 17 }} labelAlign="left" onSubmit={(values) => onChange(toFilter(values))}>
        <Grid.Row gutter={16}>
          <Grid.Col {...col}>
            <Form.Item label={t('devices.field.sn')} field="sn">
              <Input allowClear maxLength={32} placeholder={t('devices.filter.snPrefix')} onPressEnter={submit} />
            </Form.Item>
          </Grid.Col>
          <Grid.Col {...col}>
            <Form.Item label={t('devices.field.model')} field="modelId">
              <Select allowClear placeholder={t('devices.filter.all')} loading={models.isLoading} options={(models.data ?? []).map((m) => ({ value: m.id, label: `${m.code} · ${m.name}` }))} />
            </Form.Item>
          </Grid.Col>
          <Grid.Col {...col}>
            <Form.Item label={t('devices.field.status')} field="online">
              <Select
                allowClear
                placeholder={t('devices.filter.all')}
                options={[
                  { value: 'true', label: t('devices.online') },
                  { value: 'false', label: t('devices.offline') },
                ]}
              />
            </Form.Item>
          </Grid.Col>
          <Grid.Col {...col}>
            <Form.Item label={t('devices.field.state')} field="state">
              <Select allowClear placeholder={t('devices.filter.all')} options={deviceStates.map((s) => ({ value: s, label: t(`devices.state.${s}`) }))} />
            </Form.Item>
          </Grid.Col>
          <Grid.Col {...col}>
            <Form.Item
              label={t('devices.field.firmware')}
              field="firmware"
              rules={[{ validator: (v: string | undefined, cb) => cb(v?.trim() && !FIRMWARE_VERSION_PATTERN.test(v.trim()) ? t('devices.filter.firmwareInvalid') : undefined) }]}
            >
              <Input allowClear maxLength={32} placeholder={t('devices.filter.firmware')} onPressEnter={submit} />
            </Form.Item>
          </Grid.Col>
          <Grid.Col {...col}>
            <Form.Item label={t('devices.field.owner')} field="owner">
              <Input allowClear maxLength={128} placeholder={t('devices.filter.owner')} onPressEnter={submit} />
            </Form.Item>
          </Grid.Col>
          <Grid.Col {...col}>
            <Form.Item label={t('devices.field.region')} field="region">
              <Select
                allowClear
                showSearch
                placeholder={t('devices.filter.region')}
                loading={regions.isLoading}
                options={(regions.data?.list ?? []).map((r) => ({ value: r, label: regionLabel(t, r) }))}
                data-testid="device-filter-region"
              />
            </Form.Item>
          </Grid.Col>
          <Grid.Col {...col}>
            <Form.Item label={t('groups.filter.tags')} field="tags">
              <Input allowClear maxLength={500} placeholder={t('groups.filter.tagsHint')} onPressEnter={submit} data-testid="device-filter-tags" />
            </Form.Item>
          </Grid.Col>
          <Grid.Col {...col}>
            <Form.Item label={t('groups.filter.group')} field="groupId">
              <Select
                allowClear
                showSearch
                placeholder={t('devices.filter.all')}
                loading={groups.isLoading}
                options={(groups.data?.list ?? []).map((g) => ({ value: g.id, label: g.name }))}
                data-testid="device-filter-group"
              />
            </Form.Item>
          </Grid.Col>
          <Grid.Col {...col}>
            <Form.Item label={t('devices.field.lastSeen')} field="lastSeen">
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
