import { Button, Table, Tag, Typography, type TableColumnProps } from '@arco-design/web-react';
import type { DevicePage, DeviceSort, DeviceSummary } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { BatteryBar, LastSeen, OnlineStatus, StateTag } from './DeviceCells.tsx';
import { regionLabel } from './region-label.ts';

interface Props {
  data: DevicePage | undefined;
  loading: boolean;
  page: number;
  pageSize: number;
  sort: DeviceSort;
  onPage(page: number, pageSize: number): void;
  onSort(sort: DeviceSort): void;
  onOpen(sn: string): void;
  /** Rows ticked for a bulk action; absent: no selection column. */
  selected?: string[];
  onSelect?(sns: string[]): void;
}

type SortField = 'sn' | 'battery' | 'firmware' | 'lastSeenAt' | 'createdAt';

/** The device list: status, battery, state, firmware, last seen; sortable columns sort on the server. */
export function DeviceTable({ data, loading, page, pageSize, sort, onPage, onSort, onOpen, selected, onSelect }: Props) {
  const t = useT();
  const order = (field: SortField) => (sort === field ? 'ascend' : sort === `-${field}` ? 'descend' : undefined);
  const columns: TableColumnProps<DeviceSummary>[] = [
    {
      title: t('devices.field.sn'),
      dataIndex: 'sn',
      width: 180,
      fixed: 'left',
      sorter: true,
      sortOrder: order('sn'),
      render: (sn: string) => (
        <Button type="text" size="mini" onClick={() => onOpen(sn)} style={{ padding: 0 }}>
          <Typography.Text style={{ color: 'rgb(var(--ml-primary-text))', fontFamily: 'monospace' }}>{sn}</Typography.Text>
        </Button>
      ),
    },
    { title: t('devices.field.status'), dataIndex: 'online', width: 100, render: (online: boolean) => <OnlineStatus online={online} /> },
    { title: t('devices.field.state'), dataIndex: 'state', width: 110, render: (_, row) => <StateTag state={row.state} /> },
    { title: t('devices.field.battery'), dataIndex: 'battery', width: 150, sorter: true, sortOrder: order('battery'), render: (value: number | null) => <BatteryBar value={value} /> },
    { title: t('devices.field.model'), dataIndex: 'modelCode', width: 120, render: (_, row) => <span title={row.modelName}>{row.modelCode}</span> },
    { title: t('devices.field.firmware'), dataIndex: 'firmware', width: 110, sorter: true, sortOrder: order('firmware'), render: (v: string | null) => v ?? '-' },
    { title: t('devices.field.lastSeen'), dataIndex: 'lastSeenAt', width: 140, sorter: true, sortOrder: order('lastSeenAt'), render: (at: string | null) => <LastSeen at={at} /> },
    { title: t('devices.field.region'), dataIndex: 'region', width: 100, render: (v: string) => regionLabel(t, v) },
    { title: t('devices.field.owner'), dataIndex: 'owner', width: 160, ellipsis: true, render: (v: string) => v || '-' },
    {
      title: t('tags.title'),
      dataIndex: 'tags',
      width: 200,
      render: (tags: Record<string, string>) =>
        Object.keys(tags).length === 0
          ? '-'
          : Object.entries(tags).map(([k, v]) => (
              <Tag key={k} size="small" style={{ marginRight: 4 }}>
                {k}={v}
              </Tag>
            )),
    },
    {
      title: t('devices.field.actions'),
      dataIndex: 'actions',
      width: 110,
      fixed: 'right',
      render: (_, row) => (
        <Button type="text" size="small" onClick={() => onOpen(row.sn)}>
          {t('devices.action.detail')}
        </Button>
      ),
    },
  ];
  const total = data?.total ?? 0;
  return (
    <Table
      rowKey="sn"
      columns={columns}
      data={data?.list ?? []}
      loading={loading}
      border={false}
      scroll={{ x: 1480 }}
      rowSelection={onSelect ? { type: 'checkbox', selectedRowKeys: selected ?? [], onChange: (keys) => onSelect(keys as string[]), checkboxProps: (row) => ({ 'aria-label': t('common.selectRow', { name: row.sn }) }) } : undefined}
      noDataElement={<div className="devices-empty">{t('devices.empty')}</div>}
      pagination={{
        current: page,
        pageSize,
        total,
        sizeCanChange: true,
        sizeOptions: [10, 20, 50, 100],
        showTotal: () => t(data?.totalExact === false ? 'devices.totalAbout' : 'devices.total', { total: total.toLocaleString() }),
      }}
      onChange={(pagination, sorter, _filters, extra) => {
        if (extra.action === 'sort') {
          const s = Array.isArray(sorter) ? sorter[0] : sorter;
          const field = s?.field as SortField | undefined;
          onSort(!field || !s?.direction ? 'sn' : ((s.direction === 'descend' ? `-${field}` : field) as DeviceSort));
          return;
        }
        onPage(pagination.current ?? 1, pagination.pageSize ?? pageSize);
      }}
    />
  );
}
