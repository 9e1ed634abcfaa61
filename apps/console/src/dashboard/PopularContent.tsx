import { useState } from 'react';
import { Card, Link, Radio, Tag, Typography } from '@arco-design/web-react';
import { IconArrowFall, IconArrowRise } from '@arco-design/web-react/icon';
import { useNavigate } from 'react-router';
import { contentTypes, type ContentType, type PopularItem } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { usePopularContent } from './dashboard.api.ts';
import { routePath } from './route-path.ts';
import { WidgetState } from './WidgetState.tsx';
import styles from './workplace.module.css';

/**
 * The change against the week before. Up is good (more opens) and drawn green with a rising
 * arrow, down red with a falling one; Arco Pro's template draws them the other way round.
 */
export function Increase({ value }: { value: PopularItem['increases'] }) {
  const t = useT();
  if (value === null)
    return (
      <Tag size="small" color="arcoblue" data-trend="new">
        {t('workplace.popular.new')}
      </Tag>
    );
  const trend = value > 0 ? 'up' : value < 0 ? 'down' : 'flat';
  return (
    <span className={styles.increase} data-trend={trend}>
      {Math.abs(value).toLocaleString(undefined, { maximumFractionDigits: 1 })}%
      {trend === 'up' && <IconArrowRise aria-label={t('workplace.popular.up')} />}
      {trend === 'down' && <IconArrowFall aria-label={t('workplace.popular.down')} />}
    </span>
  );
}

/** The spec's popular lists: top 5 articles, image posts or videos by opens this week. */
export function PopularContent() {
  const t = useT();
  const navigate = useNavigate();
  const [type, setType] = useState<ContentType>('text');
  const popular = usePopularContent(type);
  const list = popular.data ?? [];
  return (
    <Card
      bordered={false}
      title={t('workplace.popular.title')}
      data-testid="popular-card"
      extra={<Link onClick={() => navigate(routePath('operation-content'))}>{t('workplace.viewAll')}</Link>}
    >
      <Radio.Group type="button" size="small" value={type} onChange={setType} style={{ marginBottom: 12 }}>
        {contentTypes.map((kind) => (
          <Radio key={kind} value={kind} data-testid={`popular-tab-${kind}`}>
            {t(`workplace.popular.type.${kind}`)}
          </Radio>
        ))}
      </Radio.Group>
      <WidgetState query={popular} empty={list.length === 0} emptyText={t('workplace.popular.empty')} testId="popular" rows={5}>
        <div className={styles.popularHead}>
          <span>{t('workplace.popular.rank')}</span>
          <span>{t('workplace.popular.item')}</span>
          <span>{t('workplace.popular.clicks')}</span>
          <span>{t('workplace.popular.increase')}</span>
        </div>
        {list.map((item, index) => (
          <div key={item.key} className={styles.popularRow} data-testid="popular-item">
            <span className={index < 3 ? styles.rankTop : styles.rank}>{index + 1}</span>
            <Typography.Text ellipsis style={{ margin: 0 }}>
              {item.title}
            </Typography.Text>
            <span>{item.clickNumber.toLocaleString()}</span>
            <Increase value={item.increases} />
          </div>
        ))}
      </WidgetState>
    </Card>
  );
}
