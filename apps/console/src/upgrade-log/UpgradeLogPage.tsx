import { useState } from 'react';
import { Button, Card, Input, InputNumber, Select, Space, Table, Tag, Timeline, type TableColumnProps } from '@arco-design/web-react';
import { namedExpandIcon } from '../components/a11y.tsx';
import { IconDownload, IconRefresh } from '@arco-design/web-react/icon';
import { useSearchParams } from 'react-router';
import { artifactKinds, otaJobStates, type OtaJobState, type UpgradeRecord } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { usePaging } from '../components/usePaging.ts';
import { useFormatTime } from '../locale/format.ts';
import { jobStateColor } from '../firmware/labels.ts';
import { downloadUpgradeLog, useUpgradeLog, type UpgradeLogFilter } from './upgrade-log.api.ts';
import '../firmware/firmware.css';

/** Device → upgrade log: one record per device per campaign, each state with its time. */
export default function UpgradeLogPage() {
  const t = useT();
  const { dateTime } = useFormatTime();
  const [params] = useSearchParams();
  const fromUrl = Number(params.get('campaignId')) || undefined;
  const [filter, setFilter] = useState<UpgradeLogFilter>({ campaignId: fromUrl });
  const { page, pageSize, setPage, pagination } = usePaging();
  const [exporting, setExporting] = useState(false);
  const log = useUpgradeLog({ ...filter, page, pageSize });
  const apply = (next: UpgradeLogFilter) => {
    setFilter(next);
    setPage(1);
  };

  const columns: TableColumnProps<UpgradeRecord>[] = [
    { title: t('upgradeLog.sn'), dataIndex: 'sn', width: 170, render: (v: string) => <span className="ota-mono">{v}</span> },
    { title: t('upgradeLog.campaign'), dataIndex: 'campaignName', width: 240, ellipsis: true, tooltip: true, render: (v: string, r) => `#${r.campaignId} ${v}` },
    { title: t('upgradeLog.kind'), dataIndex: 'kind', width: 100, render: (k: string) => t(`upgradeLog.kind.${k}`) },
    { title: t('upgradeLog.versions'), dataIndex: 'toVersion', width: 170, render: (_, r) => `${r.fromVersion || '?'} → ${r.toVersion}` },
    {
      title: t('upgradeLog.state'),
      dataIndex: 'state',
      width: 150,
      render: (s: OtaJobState, r) => (
        <Tag color={jobStateColor[s]}>
          {t(`ota.state.${s}`)}
          {s === 'DOWNLOADING' ? ` ${r.progress}%` : ''}
        </Tag>
      ),
    },
    { title: t('upgradeLog.reason'), dataIndex: 'reason', width: 170, render: (v: string) => (v ? <span className="ota-mono">{v}</span> : '-') },
    { title: t('upgradeLog.retries'), dataIndex: 'retries', width: 90 },
    { title: t('upgradeLog.updatedAt'), dataIndex: 'updatedAt', width: 180, render: (v: string) => dateTime(v) },
  ];

  return (
    <Card>
      <div className="ota-toolbar">
        <Space wrap>
          <Input.Search allowClear style={{ width: 200 }} maxLength={32} placeholder={t('upgradeLog.filter.sn')} onSearch={(v) => apply({ ...filter, sn: v.trim().toUpperCase() || undefined })} />
          <InputNumber
            style={{ width: 150 }}
            min={1}
            max={2_147_483_647}
            aria-label={t('upgradeLog.filter.campaign')}
            placeholder={t('upgradeLog.filter.campaign')}
            value={filter.campaignId}
            onChange={(v) => apply({ ...filter, campaignId: v || undefined })}
          />
          <Select
            allowClear
            style={{ width: 160 }}
            placeholder={t('upgradeLog.filter.state')}
            value={filter.state}
            onChange={(state?: OtaJobState) => apply({ ...filter, state })}
            options={otaJobStates.map((s) => ({ value: s, label: t(`ota.state.${s}`) }))}
          />
          <Select
            allowClear
            style={{ width: 140 }}
            placeholder={t('upgradeLog.filter.kind')}
            value={filter.kind}
            onChange={(kind?: UpgradeRecord['kind']) => apply({ ...filter, kind })}
            options={artifactKinds.map((k) => ({ value: k, label: t(`upgradeLog.kind.${k}`) }))}
          />
          <Button icon={<IconRefresh />} onClick={() => apply({})}>
            {t('upgradeLog.reset')}
          </Button>
        </Space>
        <Button
          icon={<IconDownload />}
          loading={exporting}
          onClick={() => {
            setExporting(true);
            void downloadUpgradeLog(filter)
              .catch(() => {})
              .finally(() => setExporting(false));
          }}
        >
          {t('upgradeLog.export')}
        </Button>
      </div>
      <Table
        rowKey="id"
        data-testid="upgrade-log-table"
        columns={columns}
        data={log.data?.list ?? []}
        loading={log.isLoading}
        border={false}
        scroll={{ x: 1400 }}
        noDataElement={<div style={{ padding: 24 }}>{t('upgradeLog.empty')}</div>}
        expandProps={{ icon: namedExpandIcon((open) => t(open ? 'common.collapseRow' : 'common.expandRow')) }}
        expandedRowRender={(r) => (
          <Timeline mode="left" labelPosition="relative">
            {r.history.map((h, i) => (
              <Timeline.Item key={i} label={dateTime(h.at)} dotColor={h.state === 'FAILED' ? 'red' : undefined}>
                {t(`ota.state.${h.state}`)}
                {h.reason ? ` · ${h.reason}` : ''}
                {h.attempt > 0 ? ` · ${t('upgradeLog.attempt', { n: h.attempt + 1 })}` : ''}
              </Timeline.Item>
            ))}
          </Timeline>
        )}
        pagination={pagination(log.data?.total ?? 0, { sizeCanChange: true })}
      />
    </Card>
  );
}
