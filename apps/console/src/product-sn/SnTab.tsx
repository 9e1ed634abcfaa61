import { useState } from 'react';
import { Badge, Button, Input, Select, Space, Table, Tag, type TableColumnProps } from '@arco-design/web-react';
import { IconPlus, IconRefresh, IconUpload } from '@arco-design/web-react/icon';
import { permissions, type SnListQuery, type SnRecord, type SnSecret } from '@mowerline/contract';
import { useDeviceRegions, useProductModels } from '../devices/devices.api.ts';
import { regionLabel } from '../devices/region-label.ts';
import { useT } from '../locale/i18n.ts';
import { useFormatTime } from '../locale/format.ts';
import { Permission } from '../permission/Permission.tsx';
import { usePermission } from '../permission/usePermission.ts';
import { ImportSnModal } from './ImportSnModal.tsx';
import { RegisterSnModal } from './RegisterSnModal.tsx';
import { SecretModal } from './SecretModal.tsx';
import { SnRowActions } from './SnRowActions.tsx';
import { useSnList } from './product-sn.api.ts';

type Filters = Partial<Pick<SnListQuery, 'sn' | 'modelId' | 'enabled' | 'region' | 'owner'>>;

/** The SN registry: filter, register one, import a CSV, rotate secrets, enable/disable. */
export function SnTab() {
  const t = useT();
  const { dateTime } = useFormatTime();
  const { can } = usePermission();
  const models = useProductModels();
  const regions = useDeviceRegions();
  const [filters, setFilters] = useState<Filters>({});
  const [snText, setSnText] = useState('');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(20);
  const [registering, setRegistering] = useState(false);
  const [importing, setImporting] = useState(false);
  const [secret, setSecret] = useState<{ value: SnSecret; rotated: boolean }>();
  const list = useSnList({ ...filters, page, pageSize });
  const apply = (next: Filters) => {
    setFilters(next);
    setPage(1);
  };

  const columns: TableColumnProps<SnRecord>[] = [
    { title: t('productSn.field.sn'), dataIndex: 'sn', width: 190, render: (sn: string) => <span style={{ fontFamily: 'monospace' }}>{sn}</span> },
    { title: t('productSn.field.model'), dataIndex: 'modelCode', width: 160, render: (_, r) => `${r.modelCode} · ${r.modelName}` },
    { title: t('productSn.field.enabled'), dataIndex: 'enabled', width: 100, render: (on: boolean) => <Tag color={on ? 'green' : 'gray'}>{t(on ? 'devices.enabled' : 'devices.disabled')}</Tag> },
    { title: t('devices.field.status'), dataIndex: 'online', width: 90, render: (on: boolean) => <Badge status={on ? 'success' : 'default'} text={t(on ? 'devices.online' : 'devices.offline')} /> },
    { title: t('productSn.field.region'), dataIndex: 'region', width: 110, render: (v: string) => regionLabel(t, v) },
    { title: t('productSn.field.owner'), dataIndex: 'owner', width: 150, ellipsis: true, render: (v: string) => v || '-' },
    { title: t('productSn.field.remark'), dataIndex: 'remark', ellipsis: true, tooltip: true, render: (v: string) => v || '-' },
    { title: t('productSn.field.createdAt'), dataIndex: 'createdAt', width: 170, render: (v: string) => dateTime(v) },
    { title: t('productSn.field.secretRotatedAt'), dataIndex: 'secretRotatedAt', width: 170, render: (v: string) => dateTime(v) },
  ];
  if (can(permissions.productSnWrite)) {
    columns.push({
      title: t('devices.field.actions'),
      dataIndex: 'actions',
      width: 240,
      fixed: 'right',
      render: (_, row) => <SnRowActions row={row} onSecret={(value) => setSecret({ value, rotated: true })} />,
    });
  }

  return (
    <div>
      <div className="sn-toolbar">
        <Space wrap size={12}>
          <Input.Search
            allowClear
            style={{ width: 220 }}
            maxLength={32}
            placeholder={t('productSn.filter.sn')}
            value={snText}
            onChange={setSnText}
            onSearch={(text) => apply({ ...filters, sn: text.trim().toUpperCase() || undefined })}
            onClear={() => apply({ ...filters, sn: undefined })}
          />
          <Select
            allowClear
            style={{ width: 200 }}
            placeholder={t('productSn.filter.model')}
            value={filters.modelId}
            onChange={(modelId?: number) => apply({ ...filters, modelId })}
            options={(models.data ?? []).map((m) => ({ value: m.id, label: `${m.code} · ${m.name}` }))}
          />
          <Select
            allowClear
            style={{ width: 140 }}
            placeholder={t('productSn.filter.enabled')}
            value={filters.enabled === undefined ? undefined : String(filters.enabled)}
            onChange={(v?: string) => apply({ ...filters, enabled: v === undefined ? undefined : v === 'true' })}
            options={[
              { value: 'true', label: t('devices.enabled') },
              { value: 'false', label: t('devices.disabled') },
            ]}
          />
          <Select
            allowClear
            showSearch
            style={{ width: 160 }}
            placeholder={t('productSn.filter.region')}
            value={filters.region}
            onChange={(v?: string) => apply({ ...filters, region: v || undefined })}
            options={(regions.data?.list ?? []).map((r) => ({ value: r, label: regionLabel(t, r) }))}
          />
          <Input.Search allowClear style={{ width: 180 }} maxLength={128} placeholder={t('productSn.filter.owner')} onSearch={(v) => apply({ ...filters, owner: v.trim() || undefined })} />
          <Button
            icon={<IconRefresh />}
            onClick={() => {
              setSnText('');
              apply({});
            }}
          >
            {t('devices.filter.reset')}
          </Button>
        </Space>
        <Permission roles={permissions.productSnWrite}>
          <Space>
            <Button icon={<IconUpload />} onClick={() => setImporting(true)}>
              {t('productSn.action.import')}
            </Button>
            <Button type="primary" icon={<IconPlus />} onClick={() => setRegistering(true)}>
              {t('productSn.action.register')}
            </Button>
          </Space>
        </Permission>
      </div>
      <Table
        rowKey="sn"
        columns={columns}
        data={list.data?.list ?? []}
        loading={list.isLoading || (list.isFetching && list.isPlaceholderData)}
        border={false}
        scroll={{ x: 1470 }}
        noDataElement={<div className="devices-empty">{t('productSn.empty')}</div>}
        pagination={{
          current: page,
          pageSize,
          total: list.data?.total ?? 0,
          sizeCanChange: true,
          sizeOptions: [10, 20, 50, 100],
          showTotal: (total: number) => t('productSn.total', { total: total.toLocaleString() }),
        }}
        onChange={(p) => {
          setPage(p.pageSize === pageSize ? (p.current ?? 1) : 1);
          setPageSize(p.pageSize ?? pageSize);
        }}
      />
      <RegisterSnModal
        visible={registering}
        onClose={() => setRegistering(false)}
        onRegistered={(value) => {
          setRegistering(false);
          setSecret({ value, rotated: false });
        }}
      />
      <ImportSnModal visible={importing} onClose={() => setImporting(false)} />
      <SecretModal secret={secret?.value} rotated={secret?.rotated} onClose={() => setSecret(undefined)} />
    </div>
  );
}
