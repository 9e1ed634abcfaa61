import type { DeviceState, EventSeverity } from '@mowerline/contract';

/** Arco tag colour of each state; the map uses the same hues (hex) so a state reads the same everywhere. */
export const stateTagColor: Record<DeviceState, string> = {
  idle: 'arcoblue',
  mowing: 'green',
  returning: 'cyan',
  charging: 'gold',
  paused: 'orange',
  error: 'red',
  updating: 'purple',
  offline: 'gray',
};

export const stateHex: Record<DeviceState, string> = {
  idle: '#165DFF',
  mowing: '#00B42A',
  returning: '#14C9C9',
  charging: '#F7BA1E',
  paused: '#FF7D00',
  error: '#F53F3F',
  updating: '#722ED1',
  offline: '#86909C',
};

export const severityTagColor: Record<EventSeverity, string> = {
  critical: 'red',
  major: 'orangered',
  minor: 'gold',
  warning: 'arcoblue',
};

/** Battery bar colour: red when nearly empty, orange when low. */
export function batteryStatus(percent: number): 'error' | 'warning' | 'success' {
  if (percent <= 15) return 'error';
  if (percent <= 30) return 'warning';
  return 'success';
}
