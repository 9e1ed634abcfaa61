import { useState } from 'react';
import { Button, Table, Tag, type TableColumnProps } from '@arco-design/web-react';
import { NamedProgress } from '../components/a11y.tsx';
import { IconPlus } from '@arco-design/web-react/icon';
import { finishedJobStates, permissions, type ArtifactKind, type Campaign, type CampaignStatus } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { usePaging } from '../components/usePaging.ts';
import { useFormatTime } from '../locale/format.ts';
import { Permission } from '../permission/Permission.tsx';
import { CampaignDrawer } from './CampaignDrawer.tsx';
import { CreateCampaignModal } from './CreateCampaignModal.tsx';
import { useCampaigns } from './firmware.api.ts';
import { campaignStatusColor, outcomeText, phaseText } from './labels.ts';

/** Finished share of a campaign (success, failed, skipped, cancelled over all). */
export function finishedPercent(c: Campaign): number {
  const done = finishedJobStates.reduce((sum, state) => sum + (c.counts[state] ?? 0), 0);
  return c.total === 0 ? 0 : Math.floor((done * 100) / c.total);
}

/** Campaigns of one artifact kind, with live progress; a row opens its detail. */
export function CampaignsTab({ kind }: { kind: ArtifactKind }) {
  const t = useT();
  const { dateTime } = useFormatTime();
  const { page, pageSize, pagination } = usePaging();
  const [creating, setCreating] = useState(false);
  const [openId, setOpenId] = useState<number>();
  const list = useCampaigns(kind, page, pageSize);

  const columns: TableColumnProps<Campaign>[] = [
    { title: t('ota.campaign.name'), dataIndex: 'name', ellipsis: true, render: (v: string, c) => <Button type="text" size="mini" onClick={() => setOpenId(c.id)}>{v}</Button> },
    { title: t('ota.field.version'), dataIndex: 'version', width: 150, render: (v: string, c) => `${c.modelCode} → ${v}` },
    {
      title: t('ota.field.status'),
      dataIndex: 'status',
      width: 220,
      render: (s: CampaignStatus, c) => (
        <Tag color={campaignStatusColor[s]} data-testid="ota-campaign-row-status">
          {t(`ota.campaign.status.${s}`)}
          {c.pauseReason === 'ABORT_THRESHOLD' ? ` · ${t('ota.campaign.aborted')}` : ''}
          {c.pauseReason === 'SUCCESS_THRESHOLD' ? ` · ${t('ota.campaign.thresholdMissed')}` : ''}
        </Tag>
      ),
    },
    {
      title: t('ota.campaign.progress'),
      dataIndex: 'counts',
      width: 280,
      render: (_, c) => (
        <div>
          <NamedProgress
            label={t('ota.campaign.progress')}
            percent={finishedPercent(c)}
            status={c.counts.FAILED ? 'warning' : c.status === 'completed' ? 'success' : 'normal'}
            formatText={() => `${c.counts.SUCCESS ?? 0}/${c.total}${c.counts.FAILED ? ` · ✕${c.counts.FAILED}` : ''}`}
          />
          <div className="ota-outcome" data-testid="ota-campaign-row-outcome">{outcomeText(c, t)}</div>
        </div>
      ),
    },
    { title: t('ota.campaign.phase'), dataIndex: 'phaseIndex', width: 240, render: (_: number, c) => <span data-testid="ota-campaign-row-phase">{phaseText(c, t)}</span> },
    { title: t('ota.field.createdAt'), dataIndex: 'createdAt', width: 220, render: (v: string, c) => `${dateTime(v)} · ${c.createdBy}` },
  ];

  return (
    <div>
      <div className="ota-toolbar">
        <span />
        <Permission roles={permissions.campaignControl}>
          <Button type="primary" icon={<IconPlus />} onClick={() => setCreating(true)} data-testid="ota-campaign-new">
            {t('ota.campaign.create')}
          </Button>
        </Permission>
      </div>
      <Table
        rowKey="id"
        columns={columns}
        data={list.data?.list ?? []}
        loading={list.isLoading}
        border={false}
        onRow={(c) => ({ onDoubleClick: () => setOpenId(c.id) })}
        noDataElement={<div style={{ padding: 24 }}>{t('ota.empty.campaigns')}</div>}
        pagination={pagination(list.data?.total ?? 0)}
      />
      <CreateCampaignModal kind={kind} visible={creating} onClose={() => setCreating(false)} onCreated={(c) => setOpenId(c.id)} />
      <CampaignDrawer id={openId} onClose={() => setOpenId(undefined)} />
    </div>
  );
}
