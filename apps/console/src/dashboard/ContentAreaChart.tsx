import { useMemo } from 'react';
import type { ContentDataPoint } from '@mowerline/contract';
import { EChart } from '../devices/EChart.tsx';
import styles from './workplace.module.css';

/** The area chart itself; lazily loaded with ECharts (tree-shaken `echarts/core`). */
export default function ContentAreaChart({ points, seriesName }: { points: ContentDataPoint[]; seriesName: string }) {
  const option = useMemo(
    () => ({
      grid: { left: 40, right: 16, top: 16, bottom: 28 },
      tooltip: { trigger: 'axis' },
      xAxis: { type: 'category', boundaryGap: false, data: points.map((p) => p.x.slice(5)) },
      yAxis: { type: 'value', minInterval: 1 },
      series: [
        {
          name: seriesName,
          type: 'line',
          smooth: true,
          showSymbol: points.length <= 31,
          data: points.map((p) => p.y),
          lineStyle: { width: 2, color: '#165DFF' },
          itemStyle: { color: '#165DFF' },
          areaStyle: { color: { type: 'linear', x: 0, y: 0, x2: 0, y2: 1, colorStops: [{ offset: 0, color: 'rgba(22,93,255,0.35)' }, { offset: 1, color: 'rgba(22,93,255,0.02)' }] } },
        },
      ],
    }),
    [points, seriesName],
  );
  return <EChart option={option} className={styles.chart} testId="content-chart" />;
}
