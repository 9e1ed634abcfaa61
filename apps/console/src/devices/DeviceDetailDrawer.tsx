import { lazy, Suspense } from 'react';
import { Descriptions, Drawer, Skeleton, Space, Tag } from '@arco-design/web-react';
import type { DeviceDetail } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { useFormatTime } from '../locale/format.ts';
import { BatteryBar, LastSeen, OnlineStatus, StateTag } from './DeviceCells.tsx';
import { DeviceAppUsers } from './DeviceAppUsers.tsx';
import { DeviceEventsList } from './DeviceEventsList.tsx';
import { DeviceIngestLimits } from './DeviceIngestLimits.tsx';
import { DeviceUpgradeHistory } from '../upgrade-log/DeviceUpgradeHistory.tsx';
import { DeviceTagsEditor } from '../device-groups/DeviceTagsEditor.tsx';
import { useDeviceDetail } from './devices.api.ts';
import { TaskControls } from '../tasks/TaskControls.tsx';
import './devices.css';
import { regionLabel } from './region-label.ts';

// ECharts is large: the list, events and map pages load it only when a device's detail is opened.
const DeviceHistoryChart = lazy(() => import('./DeviceHistoryChart.tsx').then((m) => ({ default: m.DeviceHistoryChart })));

function Telemetry({ device }: { device: DeviceDetail }) {
  const t = useT();
  const { dateTime } = useFormatTime();
  const dash = (v: string | number | null | undefined, unit = '') => (v === null || v === undefined || v === '' ? '-' : `${v}${unit}`);
  const p = device.position;
  return (
    <Descriptions
      column={2}
      size="small"
      labelStyle={{ width: 110 }}
      data={[
        { label: t('devices.field.status'), value: <OnlineStatus online={device.online} /> },
        { label: t('devices.field.state'), value: <Space size={4}><StateTag state={device.state} />{device.errorCode && <Tag size="small" color="red">{device.errorCode}</Tag>}</Space> },
        { label: t('devices.field.battery'), value: <BatteryBar value={device.battery} /> },
        { label: t('devices.field.activity'), value: t(`devices.activity.${device.activity}`) },
        { label: t('devices.field.firmware'), value: dash(device.firmware) },
        { label: t('devices.field.blade'), value: dash(device.bladeRpm, ' rpm') },
        { label: t('devices.field.signal'), value: dash(device.rssi, ' dBm') },
        { label: t('devices.field.position'), value: p ? `${p.lat.toFixed(5)}, ${p.lng.toFixed(5)} · ${Math.round(p.heading)}°` : '-' },
        { label: t('devices.field.lastSeen'), value: <LastSeen at={device.lastSeenAt} /> },
        { label: t('devices.field.telemetryAt'), value: dateTime(device.telemetryAt) },
      ]}
    />
  );
}

function Registry({ device }: { device: DeviceDetail }) {
  const t = useT();
  const { dateTime } = useFormatTime();
  return (
    <Descriptions
      column={2}
      size="small"
      labelStyle={{ width: 110 }}
      data={[
        { label: t('devices.field.model'), value: `${device.modelCode} · ${device.modelName}` },
        { label: t('devices.field.enabled'), value: <Tag color={device.enabled ? 'green' : 'gray'}>{t(device.enabled ? 'devices.enabled' : 'devices.disabled')}</Tag> },
        { label: t('devices.field.region'), value: regionLabel(t, device.region) },
        { label: t('devices.field.createdAt'), value: dateTime(device.createdAt) },
        { label: t('devices.field.secretRotatedAt'), value: dateTime(device.secretRotatedAt) },
        { label: t('devices.field.remark'), value: device.remark || '-', span: 2 },
      ]}
    />
  );
}

/** One device: latest telemetry (live), battery/state history, recent events, firmware, app owner and shared users. */
export function DeviceDetailDrawer({ sn, onClose }: { sn: string | undefined; onClose(): void }) {
  const t = useT();
  const detail = useDeviceDetail(sn);
  const device = detail.data?.sn === sn ? detail.data : undefined;
  return (
    <Drawer
      width={720}
      visible={!!sn}
      onCancel={onClose}
      footer={null}
      unmountOnExit
      className="device-detail-drawer"
      title={
        <Space>
          <span style={{ fontFamily: 'monospace' }}>{sn}</span>
          {device && <StateTag state={device.state} />}
        </Space>
      }
    >
      {!device ? (
        <Skeleton text={{ rows: 8 }} animation />
      ) : (
        <div data-testid="device-detail">
          <div className="device-detail-section">{t('devices.section.telemetry')}</div>
          <Telemetry device={device} />
          <TaskControls device={device} />
          <div className="device-detail-section">{t('tags.title')}</div>
          <DeviceTagsEditor device={device} />
          <div className="device-detail-section">{t('devices.section.history')}</div>
          <Suspense fallback={<Skeleton text={{ rows: 4 }} animation />}>
            <DeviceHistoryChart sn={device.sn} />
          </Suspense>
          <div className="device-detail-section">{t('devices.section.events')}</div>
          <DeviceEventsList events={device.recentEvents} />
          <div className="device-detail-section">{t('devices.section.ingestLimits')}</div>
          <DeviceIngestLimits device={device} />
          <div className="device-detail-section">{t('upgradeLog.deviceHistory')}</div>
          <DeviceUpgradeHistory sn={device.sn} />
          <div className="device-detail-section">{t('devices.section.appUsers')}</div>
          <DeviceAppUsers device={device} onLeave={onClose} />
          <div className="device-detail-section">{t('devices.section.registry')}</div>
          <Registry device={device} />
        </div>
      )}
    </Drawer>
  );
}
