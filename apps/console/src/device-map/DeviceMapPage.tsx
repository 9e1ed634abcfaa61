import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Card, Spin, Typography } from '@arco-design/web-react';
import { deviceStates, type DeviceState, type MapBase } from '@mowerline/contract';
import { loadRuntimeConfig } from '../app/runtime-config.ts';
import { DeviceDetailDrawer } from '../devices/DeviceDetailDrawer.tsx';
import { useT } from '../locale/i18n.ts';
import { useFormatTime } from '../locale/format.ts';
import { useSettings } from '../settings/settings.store.ts';
import { useFleetPositions } from './device-map.api.ts';
import { FleetWorker } from './fleet-protocol.ts';
import { MapLegend } from './MapLegend.tsx';
import './device-map.css';

const OFFLINE: MapBase = { tileUrl: '', styleUrl: '', attribution: '' };

// maplibre is most of this page's JavaScript: it loads while the positions are fetched and indexed.
const FleetMap = lazy(() => import('./FleetMap.tsx'));

/** Device → map: every positioned mower, clustered in a worker, refreshed live; a click opens the device. */
export default function DeviceMapPage() {
  const t = useT();
  const { dateTime } = useFormatTime();
  const theme = useSettings((s) => s.theme);
  const [worker, setWorker] = useState<FleetWorker>();
  const [fleet, setFleet] = useState<{ size: number; counts: number[] }>();
  const [hidden, setHidden] = useState<DeviceState[]>([]);
  const [openSn, setOpenSn] = useState<string>();
  const redraw = useRef<() => void>(() => {});
  const positions = useFleetPositions(worker);
  const [base, setBase] = useState<MapBase>();

  useEffect(() => {
    // Without the runtime configuration the map still works: the offline base.
    loadRuntimeConfig().then(
      (config) => setBase(config.map),
      () => setBase(OFFLINE),
    );
  }, []);

  useEffect(() => {
    const w = new FleetWorker();
    w.onChanged = (size, counts) => {
      setFleet({ size, counts });
      redraw.current();
    };
    setWorker(w);
    return () => w.terminate();
  }, []);

  useEffect(() => {
    worker?.post({ type: 'filter', states: hidden.length === 0 ? undefined : deviceStates.flatMap((s, i) => (hidden.includes(s) ? [] : [i])) });
  }, [worker, hidden]);

  return (
    <Card className="device-map-card" bodyStyle={{ padding: 0, height: '100%' }}>
      <div className="device-map-wrap">
        {worker && base && (
          <Suspense>
            <FleetMap
              worker={worker}
              theme={theme}
              base={base}
              label={(s) => t(`devices.state.${s}`)}
              nearPlace={(name, km) => t('deviceMap.nearPlace', { name, km: km < 10 ? km.toFixed(1) : Math.round(km).toString() })}
              onDevice={setOpenSn}
              onRedraw={(fn) => {
                redraw.current = fn;
              }}
            />
          </Suspense>
        )}
        <MapLegend
          counts={fleet?.counts}
          total={fleet?.size}
          hidden={hidden}
          onToggle={(state) => setHidden((h) => (h.includes(state) ? h.filter((s) => s !== state) : [...h, state]))}
        />
        <div className="device-map-status">
          {!fleet ? (
            <Spin size={14} />
          ) : (
            <Typography.Text type="secondary" className="devices-live">
              <span className="devices-live-dot" />
              {t('deviceMap.updated', { time: dateTime(new Date(positions.data?.at ?? Date.now()).toISOString()) })}
            </Typography.Text>
          )}
        </div>
        {fleet?.size === 0 && <div className="device-map-empty">{t('deviceMap.empty')}</div>}
      </div>
      <DeviceDetailDrawer sn={openSn} onClose={() => setOpenSn(undefined)} />
    </Card>
  );
}
