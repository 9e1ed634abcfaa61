import { useMemo } from 'react';
import { Spin } from '@arco-design/web-react';
import type { EventCount } from '@mowerline/contract';
import { EChart } from '../devices/EChart.tsx';
import { useT } from '../locale/i18n.ts';

const stackColors = { active: '#F53F3F', acknowledged: '#FF7D00', cleared: '#00B42A' } as const;

/** Per-code counts (active / acknowledged / cleared stacked), most frequent first; a click filters by the code. */
export function EventCounts({ counts, loading, onCode }: { counts: EventCount[] | undefined; loading: boolean; onCode(code: string): void }) {
  const t = useT();
  const top = useMemo(() => [...(counts ?? [])].sort((a, b) => b.total - a.total).slice(0, 10).reverse(), [counts]);
  const option = useMemo(
    () => ({
      grid: { left: 8, right: 24, top: 28, bottom: 4, containLabel: true },
      legend: { top: 0, right: 0, itemWidth: 10, itemHeight: 10 },
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      xAxis: { type: 'value', minInterval: 1 },
      yAxis: { type: 'category', data: top.map((c) => c.codeText || c.code), axisLabel: { width: 160, overflow: 'truncate' } },
      series: (['active', 'acknowledged', 'cleared'] as const).map((status) => ({
        name: t(`devices.eventStatus.${status}`),
        type: 'bar',
        stack: 'total',
        barMaxWidth: 16,
        color: stackColors[status],
        data: top.map((c) => c[status]),
      })),
    }),
    [top, t],
  );
  if (!loading && top.length === 0) return <div className="devices-empty">{t('deviceEvents.counts.empty')}</div>;
  return (
    <Spin loading={loading && !counts} style={{ display: 'block' }}>
      <div data-testid="event-counts">
        <EChart option={option} className="event-counts-chart" onClick={(index) => top[index] && onCode(top[index].code)} />
      </div>
    </Spin>
  );
}
