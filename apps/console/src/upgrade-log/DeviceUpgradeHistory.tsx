import { Empty, Spin, Tag, Timeline } from '@arco-design/web-react';
import { jobStateColor } from '../firmware/labels.ts';
import { useT } from '../locale/i18n.ts';
import { useFormatTime } from '../locale/format.ts';
import { useDeviceUpgradeHistory } from './upgrade-log.api.ts';

/** A device's upgrades, newest first: for the device detail view. */
export function DeviceUpgradeHistory({ sn }: { sn: string }) {
  const t = useT();
  const { dateTime } = useFormatTime();
  const history = useDeviceUpgradeHistory(sn);
  if (history.isLoading) return <Spin />;
  if (!history.data?.length) return <Empty description={t('upgradeLog.empty')} />;
  return (
    <Timeline>
      {history.data.map((r) => (
        <Timeline.Item key={r.id} label={dateTime(r.updatedAt)} dotColor={r.state === 'FAILED' ? 'red' : r.state === 'SUCCESS' ? 'green' : undefined}>
          <div>
            {r.campaignName} · {r.fromVersion || '?'} → {r.toVersion} <Tag color={jobStateColor[r.state]}>{t(`ota.state.${r.state}`)}</Tag>
          </div>
          {r.reason && <div className="ota-mono">{r.reason}</div>}
        </Timeline.Item>
      ))}
    </Timeline>
  );
}
