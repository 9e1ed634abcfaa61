import { useMemo } from 'react';
import type { TaskDayStats } from '@mowerline/contract';
import { EChart } from '../devices/EChart.tsx';
import { useT } from '../locale/i18n.ts';

/**
 * The 30-day daily report: runs as bars (completed, interrupted, the rest), faults as a line, area
 * and mowing hours on a second axis. Its own chunk (ECharts).
 */
export default function DailyReportChart({ list }: { list: TaskDayStats[] }) {
  const t = useT();
  const option = useMemo(() => {
    const other = list.map((d) => Math.max(0, d.runs - d.completed - d.interrupted));
    return {
      grid: { left: 8, right: 8, top: 40, bottom: 8, containLabel: true },
      tooltip: { trigger: 'axis' },
      legend: { top: 0, type: 'scroll' },
      xAxis: { type: 'category', data: list.map((d) => d.date.slice(5)) },
      yAxis: [
        { type: 'value', minInterval: 1, name: t('taskOverview.series.runs'), splitLine: { lineStyle: { type: 'dashed' } } },
        { type: 'value', name: t('taskOverview.series.hours'), splitLine: { show: false } },
        // Area (m²) is orders of magnitude above hours: its own scale, values in the tooltip.
        { type: 'value', show: false },
      ],
      series: [
        { name: t('taskOverview.series.completed'), type: 'bar', stack: 'runs', data: list.map((d) => d.completed), itemStyle: { color: '#00B42A' }, barMaxWidth: 22 },
        { name: t('taskOverview.series.interrupted'), type: 'bar', stack: 'runs', data: list.map((d) => d.interrupted), itemStyle: { color: '#FF7D00' }, barMaxWidth: 22 },
        { name: t('taskOverview.series.other'), type: 'bar', stack: 'runs', data: other, itemStyle: { color: '#86909C' }, barMaxWidth: 22 },
        { name: t('taskOverview.series.faults'), type: 'line', data: list.map((d) => d.faults), itemStyle: { color: '#F53F3F' }, symbolSize: 5 },
        { name: t('taskOverview.series.hours'), type: 'line', yAxisIndex: 1, smooth: true, data: list.map((d) => Math.round(d.hours * 10) / 10), itemStyle: { color: '#165DFF' }, symbolSize: 4 },
        { name: t('taskOverview.series.area'), type: 'line', yAxisIndex: 2, smooth: true, data: list.map((d) => Math.round(d.area)), itemStyle: { color: '#14C9C9' }, symbolSize: 4 },
      ],
    };
  }, [list, t]);
  return (
    <div role="img" aria-label={t('taskOverview.daily.chart')} data-days={list.length} data-runs={list.reduce((sum, d) => sum + d.runs, 0)}>
      <EChart option={option} className="task-chart" testId="task-daily-chart" />
    </div>
  );
}
