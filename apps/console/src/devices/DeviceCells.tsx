import { Badge, Tag, Tooltip } from '@arco-design/web-react';
import { NamedProgress } from '../components/a11y.tsx';
import type { DeviceState } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { useFormatTime } from '../locale/format.ts';
import { batteryStatus, stateTagColor } from './device-labels.ts';

export function OnlineStatus({ online }: { online: boolean }) {
  const t = useT();
  return <Badge status={online ? 'success' : 'default'} text={t(online ? 'devices.online' : 'devices.offline')} data-online={online} />;
}

export function StateTag({ state }: { state: DeviceState }) {
  const t = useT();
  return (
    <Tag color={stateTagColor[state]} data-state={state}>
      {t(`devices.state.${state}`)}
    </Tag>
  );
}

export function BatteryBar({ value }: { value: number | null }) {
  const t = useT();
  if (value === null) return <span>-</span>;
  return <NamedProgress label={t('devices.field.battery')} percent={value} size="small" status={batteryStatus(value)} width={96} formatText={(p) => `${p}%`} />;
}

/** "3 minutes ago", the exact time on hover; "never" before the first message. */
export function LastSeen({ at }: { at: string | null }) {
  const t = useT();
  const { relative, dateTime } = useFormatTime();
  if (!at) return <span style={{ color: 'var(--color-text-3)' }}>{t('devices.neverSeen')}</span>;
  return (
    <Tooltip content={dateTime(at)}>
      <span>{relative(at)}</span>
    </Tooltip>
  );
}
