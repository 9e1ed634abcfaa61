import { useEffect, useRef } from 'react';
import { BarChart, LineChart } from 'echarts/charts';
import { DataZoomComponent, GridComponent, LegendComponent, MarkAreaComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import type { EChartsCoreOption } from 'echarts/core';
import { useSettings } from '../settings/settings.store.ts';

// Tree-shaken: only the charts and components the device pages draw.
echarts.use([LineChart, BarChart, GridComponent, TooltipComponent, LegendComponent, MarkAreaComponent, DataZoomComponent, CanvasRenderer]);

/** An ECharts canvas that follows the console theme and its container's size. */
export function EChart({ option, className, testId, onClick }: { option: EChartsCoreOption; className?: string; testId?: string; onClick?(dataIndex: number): void }) {
  const ref = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const dark = useSettings((s) => s.theme === 'dark');
  const click = useRef(onClick);
  useEffect(() => {
    click.current = onClick;
  });

  useEffect(() => {
    const instance = echarts.init(ref.current!, dark ? 'dark' : undefined);
    chart.current = instance;
    instance.on('click', (params) => click.current?.(params.dataIndex));
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(ref.current!);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, [dark]);

  useEffect(() => {
    chart.current?.setOption({ backgroundColor: 'transparent', ...option }, true);
  }, [option, dark]);

  return <div ref={ref} className={className} data-testid={testId} />;
}
