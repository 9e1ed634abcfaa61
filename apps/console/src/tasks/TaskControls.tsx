import { useState, type ReactNode } from 'react';
import { Button, InputNumber, Message, Popconfirm, Select, Space, Typography } from '@arco-design/web-react';
import { IconHome, IconPause, IconPlayArrow, IconPlayCircle, IconStop } from '@arco-design/web-react/icon';
import { permissions, type DeviceDetail, type TaskControlAction } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { Permission } from '../permission/Permission.tsx';
import { useControlTask, useStartTask, useZones } from './tasks.api.ts';

const controls: Array<{ action: TaskControlAction; icon: ReactNode; status?: 'warning' | 'danger' }> = [
  { action: 'pause', icon: <IconPause /> },
  { action: 'resume', icon: <IconPlayArrow /> },
  { action: 'return_home', icon: <IconHome />, status: 'warning' },
  { action: 'cancel', icon: <IconStop />, status: 'danger' },
];

function ControlButton({ sn, action, icon, status, disabled }: { sn: string; action: TaskControlAction; icon: ReactNode; status?: 'warning' | 'danger'; disabled: boolean }) {
  const t = useT();
  const control = useControlTask();
  return (
    <Popconfirm
      title={t(`taskControl.confirm.${action}`, { sn })}
      disabled={disabled}
      onOk={() =>
        control.mutateAsync({ sn, action }).then(
          () => void Message.success(t(`taskControl.done.${action}`, { sn })),
          () => {},
        )
      }
    >
      <Button size="small" icon={icon} status={status} disabled={disabled} loading={control.isPending} aria-label={t(`taskControl.do.${action}Of`, { sn })}>
        {t(`taskControl.do.${action}`)}
      </Button>
    </Popconfirm>
  );
}

function Controls({ device }: { device: DeviceDetail }) {
  const t = useT();
  const { sn } = device;
  const zones = useZones(sn);
  const start = useStartTask();
  const [picked, setPicked] = useState<string[]>([]);
  const [minutes, setMinutes] = useState<number | undefined>();
  const offline = !device.online;
  const zoneOptions = (zones.data?.zones ?? []).map((z) => ({ label: z.name || z.id, value: z.id }));
  const duration = minutes ? t('taskControl.confirm.limit', { minutes }) : t('taskControl.confirm.noLimit');
  const zoneText = picked.length ? picked.map((id) => zoneOptions.find((o) => o.value === id)?.label ?? id).join(', ') : t('taskControl.confirm.allZones');
  return (
    <div className="task-controls" data-testid="task-controls">
      {offline && <Typography.Text type="secondary">{t('taskControl.offline')}</Typography.Text>}
      <Space wrap size={8} style={{ marginTop: offline ? 8 : 0 }}>
        <Select
          mode="multiple"
          allowClear
          size="small"
          style={{ width: 220 }}
          loading={zones.isLoading}
          options={zoneOptions}
          value={picked}
          onChange={(v: string[]) => setPicked(v)}
          placeholder={t('taskControl.zonesHint')}
          aria-label={t('taskControl.zones')}
        />
        <InputNumber
          size="small"
          style={{ width: 160 }}
          min={1}
          max={24 * 60}
          precision={0}
          value={minutes}
          onChange={(v) => setMinutes(typeof v === 'number' && v > 0 ? v : undefined)}
          placeholder={t('taskControl.durationHint')}
          suffix={t('taskControl.minutes')}
          aria-label={t('taskControl.duration')}
        />
        <Popconfirm
          title={t('taskControl.confirm.start', { sn, zones: zoneText, duration })}
          disabled={offline}
          onOk={() =>
            start.mutateAsync({ sn, zones: picked, durationMin: minutes }).then(
              (r) => void Message.success(r.runId ? t('taskControl.done.startRun', { sn, runId: r.runId }) : t('taskControl.done.start', { sn })),
              () => {},
            )
          }
        >
          <Button size="small" type="primary" icon={<IconPlayCircle />} disabled={offline} loading={start.isPending} aria-label={t('taskControl.do.startOf', { sn })}>
            {t('taskControl.do.start')}
          </Button>
        </Popconfirm>
      </Space>
      <Space wrap size={8} style={{ marginTop: 8, display: 'flex' }}>
        {controls.map((c) => (
          <ControlButton key={c.action} sn={sn} {...c} disabled={offline} />
        ))}
      </Space>
    </div>
  );
}

/** Manual start, pause, resume, return home and cancel of a mower's run: admins only (`taskCommand`). */
export function TaskControls({ device }: { device: DeviceDetail }) {
  const t = useT();
  return (
    <Permission roles={permissions.taskCommand}>
      <div className="device-detail-section">{t('taskControl.section')}</div>
      <Controls device={device} />
    </Permission>
  );
}
