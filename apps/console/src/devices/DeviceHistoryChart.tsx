import { useMemo, useState } from 'react';
import { Radio, Spin } from '@arco-design/web-react';
import { reportedStates, type DeviceHistory } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { useFormatTime } from '../locale/format.ts';
import { stateHex } from './device-labels.ts';
import { useDeviceHistory } from './devices.api.ts';
import { EChart } from './EChart.tsx';

function chartOption(history: DeviceHistory, t: ReturnType<typeof useT>, dateTime: (iso: string) => string) {
  const states = [...reportedStates];
  return {
    grid: { left: 44, right: 44, top: 36, bottom: 28 },
    legend: { top: 0, data: [t('devices.field.battery'), t('devices.field.state')] },
    tooltip: {
      trigger: 'axis',
      formatter: (items: Array<{ dataIndex: number }>) => {
        const p = history.points[items[0]?.dataIndex ?? 0];
        if (!p) return '';
        return `${dateTime(p.at)}<br/>${t('devices.field.battery')}: ${Math.round(p.battery)}% (${p.batteryMin}–${p.batteryMax})<br/>${t('devices.field.state')}: ${t(`devices.state.${p.state}`)}`;
      },
    },
    xAxis: { type: 'time', min: Date.parse(history.from), max: Date.parse(history.to) },
    yAxis: [
      { type: 'value', min: 0, max: 100, axisLabel: { formatter: '{value}%' } },
      { type: 'category', data: states.map((s) => t(`devices.state.${s}`)), axisLabel: { fontSize: 10 }, splitLine: { show: false } },
    ],
    series: [
      {
        name: t('devices.field.battery'),
        type: 'line',
        // A few samples would draw no line at all without their dots.
        showSymbol: history.points.length < 40,
        smooth: true,
        areaStyle: { opacity: 0.15 },
        color: '#165DFF',
        data: history.points.map((p) => [p.at, Math.round(p.battery)]),
      },
      {
        name: t('devices.field.state'),
        type: 'line',
        step: 'end',
        yAxisIndex: 1,
        showSymbol: true,
        symbolSize: 5,
        color: '#86909C',
        lineStyle: { width: 1, type: 'dashed' },
        itemStyle: { color: (p: { dataIndex: number }) => stateHex[history.points[p.dataIndex]!.state] },
        data: history.points.map((p) => [p.at, t(`devices.state.${p.state}`)]),
      },
    ],
  };
}

/** Battery (line) and state (step) over the last hours, bucketed by the server. */
export function DeviceHistoryChart({ sn }: { sn: string }) {
  const t = useT();
  const { dateTime } = useFormatTime();
  const [hours, setHours] = useState(6);
  const history = useDeviceHistory(sn, hours);
  const option = useMemo(() => (history.data ? chartOption(history.data, t, dateTime) : undefined), [history.data, t, dateTime]);
  return (
    <div>
      <Radio.Group type="button" size="mini" value={hours} onChange={setHours} style={{ marginBottom: 8 }}>
        {[1, 6, 24, 168].map((h) => (
          <Radio key={h} value={h}>
            {t(h === 168 ? 'devices.history.week' : 'devices.history.hours', { hours: h })}
          </Radio>
        ))}
      </Radio.Group>
      <Spin loading={history.isLoading} style={{ display: 'block' }}>
        {history.data && history.data.points.length === 0 ? (
          <div className="devices-empty">{t('devices.history.empty')}</div>
        ) : (
          option && <EChart option={option} className="device-chart" testId="device-history-chart" />
        )}
      </Spin>
    </div>
  );
}
