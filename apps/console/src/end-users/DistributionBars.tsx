import { useMemo } from 'react';
import { EChart } from '../devices/EChart.tsx';
import { percent } from './labels.ts';

export interface Bar {
  key: string;
  label: string;
  count: number;
  share: number;
}

/** Ranked horizontal bars, largest on top; its own chunk (ECharts), like the device history chart. */
export default function DistributionBars({ bars, highlight, seriesName, testId, onSelect }: { bars: Bar[]; highlight?: string; seriesName: string; testId: string; onSelect?(key: string): void }) {
  const option = useMemo(
    () => ({
      grid: { left: 8, right: 56, top: 8, bottom: 8, containLabel: true },
      tooltip: {
        trigger: 'axis',
        axisPointer: { type: 'shadow' },
        formatter: (items: Array<{ dataIndex: number }>) => {
          const bar = bars[items[0]?.dataIndex ?? 0];
          return bar ? `${bar.label}<br/>${seriesName}: ${bar.count.toLocaleString()} (${percent(bar.share)})` : '';
        },
      },
      xAxis: { type: 'value', minInterval: 1, splitLine: { lineStyle: { type: 'dashed' } } },
      yAxis: { type: 'category', inverse: true, data: bars.map((b) => b.label), axisLabel: { width: 120, overflow: 'truncate' }, axisTick: { show: false } },
      series: [
        {
          name: seriesName,
          type: 'bar',
          barMaxWidth: 18,
          label: { show: true, position: 'right', formatter: (p: { dataIndex: number }) => percent(bars[p.dataIndex]?.share ?? 0) },
          data: bars.map((b) => ({ value: b.count, itemStyle: { color: b.key === highlight ? '#165DFF' : '#4CD263', borderRadius: [0, 3, 3, 0] } })),
        },
      ],
    }),
    [bars, highlight, seriesName],
  );
  const height = Math.max(160, bars.length * 26 + 24);
  return (
    <div style={{ height }}>
      <EChart option={option} className="user-dist-chart-fill" testId={testId} onClick={onSelect ? (i) => bars[i] && onSelect(bars[i].key) : undefined} />
    </div>
  );
}
