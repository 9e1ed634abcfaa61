import { lazy, Suspense, useMemo, useState } from 'react';
import { Button, Card, Radio, Space, Spin, Typography } from '@arco-design/web-react';
import { IconClose } from '@arco-design/web-react/icon';
import { distributionBases, type DistributionBasis } from '@mowerline/contract';
import { useLocaleStore, useT } from '../locale/i18n.ts';
import { useSettings } from '../settings/settings.store.ts';
import { useUsersByCity, useUsersByCountry } from './end-users.api.ts';
import { QueryState, RankTable, type RankRow } from './DistributionPanels.tsx';
import { countryName } from './labels.ts';
import { RAMP } from './ramp.ts';
import '../devices/devices.css';
import './end-users.css';

// maplibre and ECharts are most of this page's JavaScript: each loads in its own chunk.
const DistributionMap = lazy(() => import('./DistributionMap.tsx'));
const DistributionBars = lazy(() => import('./DistributionBars.tsx'));

const COUNTRY_LIMIT = 300;
const CITY_LIMIT = 50;
const TOP_BARS = 15;

function MapLegendBox({ max }: { max: number }) {
  const t = useT();
  return (
    <div className="user-dist-legend" data-testid="user-dist-legend">
      <div>{t('userDist.legend')}</div>
      <div className="user-dist-ramp" aria-hidden>
        {RAMP.map((c) => (
          <span key={c} style={{ background: c }} />
        ))}
      </div>
      <div className="user-dist-ramp-labels">
        <span>{max > 0 ? 1 : 0}</span>
        <span>{max.toLocaleString()}</span>
      </div>
    </div>
  );
}

/** Operation → user distribution: users per country (map, bars, table) and per city, by home or by where their mowers are. */
export default function UserDistributionPage() {
  const t = useT();
  const locale = useLocaleStore((s) => s.locale);
  const theme = useSettings((s) => s.theme);
  const [basis, setBasis] = useState<DistributionBasis>('home');
  const [country, setCountry] = useState<string>();
  const countries = useUsersByCountry(basis, COUNTRY_LIMIT);
  const cities = useUsersByCity(basis, country, CITY_LIMIT);

  const countryRows = useMemo<RankRow[]>(
    () => (countries.data?.list ?? []).map((c) => ({ key: c.country, label: c.name[locale] || countryName(c.country, locale), count: c.count, share: c.share })),
    [countries.data, locale],
  );
  const cityRows = useMemo<RankRow[]>(
    () =>
      (cities.data?.list ?? []).map((c) => ({
        key: `${c.country}/${c.city}`,
        label: c.city || t('userDist.unknownCity'),
        sub: country ? undefined : c.name[locale] || countryName(c.country, locale),
        count: c.count,
        share: c.share,
      })),
    [cities.data, locale, country, t],
  );
  const mapCountries = useMemo(
    () => (countries.data?.list ?? []).filter((c) => c.numeric).map((c) => ({ numeric: c.numeric, country: c.country, label: c.name[locale] || countryName(c.country, locale), count: c.count })),
    [countries.data, locale],
  );
  const max = Math.max(0, ...countryRows.map((r) => r.count));
  const selectedName = country ? (countryRows.find((r) => r.key === country)?.label ?? countryName(country, locale)) : undefined;
  const toggle = (key: string) => setCountry((current) => (current === key ? undefined : key));

  return (
    <Card
      title={t('menu.operation.userDistribution')}
      extra={
        <Space size={16} wrap>
          {countries.data && (
            <Typography.Text type="secondary" data-testid="user-dist-total">
              {t(`userDist.total.${basis}`, { total: countries.data.total.toLocaleString() })}
            </Typography.Text>
          )}
          <Radio.Group type="button" value={basis} onChange={setBasis} aria-label={t('userDist.basis')}>
            {distributionBases.map((b) => (
              <Radio key={b} value={b}>
                {t(`userDist.basis.${b}`)}
              </Radio>
            ))}
          </Radio.Group>
        </Space>
      }
    >
      <Typography.Paragraph type="secondary" style={{ marginTop: 0 }}>
        {t(`userDist.hint.${basis}`)}
      </Typography.Paragraph>
      <div className="user-dist-grid">
        <Card size="small" title={t('userDist.map')} className="user-dist-panel">
          <div className="user-dist-map-wrap">
            <Suspense fallback={<div className="user-dist-overlay"><Spin /></div>}>
              <DistributionMap countries={mapCountries} selected={country} theme={theme} ariaLabel={t('userDist.mapLabel')} onSelect={toggle} />
            </Suspense>
            {countries.isLoading && (
              <div className="user-dist-overlay">
                <Spin />
              </div>
            )}
            {countries.isError && (
              <div className="user-dist-overlay" data-testid="user-dist-map-error">
                {t('endUser.loadFailed')}
              </div>
            )}
            {countries.data && countryRows.length === 0 && (
              <div className="user-dist-overlay" data-testid="user-dist-map-empty">
                {t('userDist.empty')}
              </div>
            )}
            <MapLegendBox max={max} />
          </div>
        </Card>
        <Card size="small" title={t('userDist.topCountries', { count: Math.min(TOP_BARS, countryRows.length) })} className="user-dist-panel">
          <QueryState loading={countries.isLoading} error={countries.isError} empty={countryRows.length === 0} onRetry={() => void countries.refetch()} testId="user-dist-bars">
            <Suspense fallback={<Spin style={{ display: 'block', margin: '48px auto' }} />}>
              <DistributionBars bars={countryRows.slice(0, TOP_BARS)} highlight={country} seriesName={t('userDist.column.users')} testId="user-dist-country-chart" onSelect={toggle} />
            </Suspense>
          </QueryState>
        </Card>
        <Card size="small" title={t('userDist.countries')} className="user-dist-panel">
          <QueryState loading={countries.isLoading} error={countries.isError} empty={countryRows.length === 0} onRetry={() => void countries.refetch()} testId="user-dist-countries">
            <RankTable rows={countryRows} nameTitle={t('userDist.column.country')} selected={country} onSelect={toggle} other={countries.data?.other ?? 0} testId="user-dist-country-table" />
          </QueryState>
        </Card>
        <Card
          size="small"
          className="user-dist-panel"
          title={selectedName ? t('userDist.citiesIn', { country: selectedName }) : t('userDist.topCities')}
          extra={
            country && (
              <Button size="mini" type="text" icon={<IconClose />} onClick={() => setCountry(undefined)} aria-label={t('userDist.allCountries')}>
                {t('userDist.allCountries')}
              </Button>
            )
          }
        >
          <QueryState loading={cities.isLoading} error={cities.isError} empty={cityRows.length === 0} onRetry={() => void cities.refetch()} testId="user-dist-cities">
            <Suspense fallback={<Spin style={{ display: 'block', margin: '48px auto' }} />}>
              <DistributionBars bars={cityRows.slice(0, 10)} seriesName={t('userDist.column.users')} testId="user-dist-city-chart" />
            </Suspense>
            <RankTable rows={cityRows} nameTitle={t('userDist.column.city')} other={cities.data?.other ?? 0} testId="user-dist-city-table" />
          </QueryState>
        </Card>
      </div>
    </Card>
  );
}
