import { lazy, Suspense, useState } from 'react';
import { Card, Radio, Skeleton } from '@arco-design/web-react';
import { contentDataRanges } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { useContentData } from './dashboard.api.ts';
import { WidgetState } from './WidgetState.tsx';

// ECharts is its own chunk, loaded after the workplace has painted (first paint stays in the sign-in page's budget).
const ContentAreaChart = lazy(() => import('./ContentAreaChart.tsx'));

/** The spec's content-data chart: app content opens per day, over 8, 30 or 90 days. */
export function ContentChart() {
  const t = useT();
  const [days, setDays] = useState<(typeof contentDataRanges)[number]>(8);
  const data = useContentData(days);
  const points = data.data ?? [];
  return (
    <Card
      bordered={false}
      title={t('workplace.chart.title')}
      data-testid="content-chart-card"
      extra={
        <Radio.Group type="button" size="small" value={days} onChange={setDays}>
          {contentDataRanges.map((n) => (
            <Radio key={n} value={n} data-testid={`content-range-${n}`}>
              {t('workplace.chart.days', { days: n })}
            </Radio>
          ))}
        </Radio.Group>
      }
    >
      <WidgetState query={data} empty={points.every((p) => p.y === 0)} emptyText={t('workplace.chart.empty')} testId="content-chart" rows={6}>
        <Suspense fallback={<Skeleton animation text={{ rows: 6 }} />}>
          <ContentAreaChart points={points} seriesName={t('workplace.chart.opens')} />
        </Suspense>
      </WidgetState>
    </Card>
  );
}
