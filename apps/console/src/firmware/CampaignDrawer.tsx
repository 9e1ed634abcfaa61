import { useMemo } from 'react';
import { Button, Descriptions, Drawer, Popconfirm, Space, Spin, Tag } from '@arco-design/web-react';
import { useNavigate } from 'react-router';
import { otaJobStates, permissions, type Campaign, type CampaignAction } from '@mowerline/contract';
import { EChart } from '../devices/EChart.tsx';
import { useT } from '../locale/i18n.ts';
import { useFormatTime } from '../locale/format.ts';
import { usePermission } from '../permission/usePermission.ts';
import { useCampaign, useCampaignAction } from './firmware.api.ts';
import { campaignEnded, campaignStatusColor, jobStateColor, jobStateHex, outcomeText, phaseText } from './labels.ts';

/** One campaign live: counts per state, a chart of them, its settings and pause/resume/cancel. */
export function CampaignDrawer({ id, onClose }: { id: number | undefined; onClose(): void }) {
  const t = useT();
  const campaign = useCampaign(id);
  const c = campaign.data;
  return (
    <Drawer width={640} visible={id !== undefined} title={c ? c.name : t('ota.campaign.detail')} onCancel={onClose} footer={null} unmountOnExit>
      {!c ? <Spin style={{ display: 'block', margin: '48px auto' }} /> : <CampaignBody campaign={c} onLeave={onClose} />}
    </Drawer>
  );
}

function CampaignBody({ campaign: c, onLeave }: { campaign: Campaign; onLeave(): void }) {
  const t = useT();
  const { dateTime } = useFormatTime();
  const { can } = usePermission();
  const navigate = useNavigate();
  const action = useCampaignAction();
  const run = (a: CampaignAction) => action.mutateAsync({ id: c.id, action: a });
  const option = useMemo(
    () => ({
      tooltip: { trigger: 'axis' },
      grid: { left: 40, right: 16, top: 16, bottom: 48 },
      xAxis: { type: 'category', data: otaJobStates.map((s) => t(`ota.state.${s}`)), axisLabel: { interval: 0, rotate: 30 } },
      yAxis: { type: 'value', minInterval: 1 },
      series: [{ type: 'bar', data: otaJobStates.map((s) => ({ value: c.counts[s] ?? 0, itemStyle: { color: jobStateHex[s] } })), barMaxWidth: 36 }],
    }),
    [c.counts, t],
  );
  return (
    <div data-testid="ota-campaign-detail">
      <Space style={{ marginBottom: 12 }}>
        <Tag color={campaignStatusColor[c.status]} data-testid="ota-campaign-status">
          {t(`ota.campaign.status.${c.status}`)}
        </Tag>
        {c.pauseReason === 'ABORT_THRESHOLD' && <Tag color="red">{t('ota.campaign.aborted')}</Tag>}
        {c.pauseReason === 'SUCCESS_THRESHOLD' && <Tag color="red">{t('ota.campaign.thresholdMissed')}</Tag>}
        <span>
          {c.modelCode} → {c.version}
        </span>
      </Space>
      <div className="ota-outcome" data-testid="ota-campaign-outcome">{outcomeText(c, t)}</div>
      <div className="ota-phase-now" data-testid="ota-campaign-phase-now">{phaseText(c, t)}</div>
      <div className="ota-counts" data-testid="ota-campaign-counts">
        {otaJobStates
          .filter((s) => (c.counts[s] ?? 0) > 0)
          .map((s) => (
            <Tag key={s} color={jobStateColor[s]} data-state={s}>
              {t(`ota.state.${s}`)} {c.counts[s]}
            </Tag>
          ))}
      </div>
      <EChart option={option} className="ota-chart" testId="ota-campaign-chart" />
      <Descriptions
        column={2}
        size="small"
        border
        data={[
          { label: t('ota.campaign.total'), value: c.total },
          // The current phase is marked only while the rollout is under way.
          { label: t('ota.campaign.phase'), value: c.phases.map((p, i) => (i === c.phaseIndex && !campaignEnded(c) ? `[${p}%]` : `${p}%`)).join(' → ') },
          { label: t('ota.campaign.rate'), value: `${c.ratePerMinute}/min` },
          { label: t('ota.campaign.soakShort'), value: c.soakSeconds > 0 ? t('ota.unit.minutes', { n: Math.round((c.soakSeconds / 60) * 10) / 10 }) : '0' },
          { label: t('ota.campaign.threshold'), value: c.successThresholdPercent > 0 ? `${c.successThresholdPercent}%` : t('ota.campaign.thresholdNone') },
          { label: t('ota.campaign.abort'), value: `${c.abortFailurePercent}% / ≥${c.abortMinFinished}` },
          { label: t('ota.campaign.timeout'), value: `${c.timeoutSeconds}s × ${c.retries + 1}` },
          { label: t('ota.campaign.window'), value: c.window ? `${c.window.start}–${c.window.end} UTC` : t('ota.campaign.anyTime') },
          { label: t('ota.field.createdAt'), value: `${dateTime(c.createdAt)} · ${c.createdBy}` },
          { label: t('ota.campaign.finishedAt'), value: dateTime(c.finishedAt) },
        ]}
      />
      <Space style={{ marginTop: 16 }} wrap>
        <Button
          onClick={() => {
            onLeave();
            navigate(`/device/upgrade-log?campaignId=${c.id}`);
          }}
        >{t('ota.campaign.openLog')}</Button>
        {can(permissions.campaignControl) && c.status === 'running' && (
          <Button status="warning" loading={action.isPending} onClick={() => run('pause')} data-testid="ota-campaign-pause">
            {t('ota.campaign.pause')}
          </Button>
        )}
        {can(permissions.campaignControl) && c.status === 'paused' && (
          <Button type="primary" loading={action.isPending} onClick={() => run('resume')} data-testid="ota-campaign-resume">
            {t('ota.campaign.resume')}
          </Button>
        )}
        {can(permissions.campaignControl) && (c.status === 'running' || c.status === 'paused') && (
          <Popconfirm title={t('ota.campaign.cancelConfirm')} onOk={() => run('cancel')}>
            <Button status="danger">{t('ota.campaign.cancel')}</Button>
          </Popconfirm>
        )}
      </Space>
    </div>
  );
}
