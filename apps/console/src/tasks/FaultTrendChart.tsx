import { useMemo } from 'react';
import type { TaskFaultReport } from '@mowerline/contract';
import { EChart } from '../devices/EChart.tsx';
import { useLocaleStore, useT } from '../locale/i18n.ts';
import { faultLabel } from './labels.ts';

const PALETTE = ['#F53F3F', '#FF7D00', '#F7BA1E', '#722ED1', '#165DFF', '#14C9C9', '#00B42A', '#D91AD9', '#86909C'];

/** Runs ended by a fault per day, stacked by code (the most frequent codes first). Its own chunk (ECharts). */
export default function FaultTrendChart({ report }: { report: TaskFaultReport }) {
  const t = useT();
  const locale = useLocaleStore((s) => s.locale);
  const option = useMemo(() => {
    const codes = report.list.map((g) => g.code);
    return {
      grid: { left: 8, right: 8, top: 40, bottom: 8, containLabel: true },
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      legend: { top: 0, type: 'scroll' },
      xAxis: { type: 'category', data: report.trend.map((d) => d.date.slice(5)) },
      yAxis: { type: 'value', minInterval: 1, splitLine: { lineStyle: { type: 'dashed' } } },
      series: codes.map((code, i) => ({
        name: `${faultLabel(code, locale).title} (${code})`,
        type: 'bar',
        stack: 'faults',
        barMaxWidth: 22,
        itemStyle: { color: PALETTE[i % PALETTE.length] },
        data: report.trend.map((d) => d.byCode[code] ?? 0),
      })),
    };
  }, [report, locale]);
  return (
    <div role="img" aria-label={t('taskFault.trendChart')} data-days={report.trend.length}>
      <EChart option={option} className="task-chart" testId="task-fault-chart" />
    </div>
  );
}
