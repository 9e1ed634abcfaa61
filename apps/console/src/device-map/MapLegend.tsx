import { Checkbox, Typography } from '@arco-design/web-react';
import { deviceStates, type DeviceState } from '@mowerline/contract';
import { stateHex } from '../devices/device-labels.ts';
import { useT } from '../locale/i18n.ts';

interface Props {
  counts: number[] | undefined;
  total: number | undefined;
  hidden: DeviceState[];
  onToggle(state: DeviceState): void;
}

/** Devices per state over the whole fleet; unticking a state hides it from the map. */
export function MapLegend({ counts, total, hidden, onToggle }: Props) {
  const t = useT();
  return (
    <div className="device-map-legend" data-testid="map-legend">
      <Typography.Text bold>{t('deviceMap.legend', { total: (total ?? 0).toLocaleString() })}</Typography.Text>
      {deviceStates.map((state, i) => (
        // The checkbox is the row's label: its name is the state and the count.
        <Checkbox key={state} className="device-map-legend-row" checked={!hidden.includes(state)} onChange={() => onToggle(state)}>
          <span className="device-map-swatch" style={{ background: stateHex[state] }} />
          <span className="device-map-legend-name">{t(`devices.state.${state}`)}</span>
          <span className="device-map-legend-count" data-state={state}>
            {(counts?.[i] ?? 0).toLocaleString()}
          </span>
        </Checkbox>
      ))}
    </div>
  );
}
