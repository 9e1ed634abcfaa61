import { Badge, Card } from '@arco-design/web-react';
import { IconRight } from '@arco-design/web-react/icon';
import { useNavigate } from 'react-router';
import type { NotifyItem } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { useNotify } from './dashboard.api.ts';
import { WidgetState } from './WidgetState.tsx';
import styles from './workplace.module.css';

const levelColor: Record<NotifyItem['level'], string> = { info: 'arcoblue', warning: 'orange', danger: 'red' };

/** What needs me now (role-aware on the server), each row opening the page filtered to it. */
export function NotifyList() {
  const t = useT();
  const navigate = useNavigate();
  const notify = useNotify();
  const list = notify.data?.list ?? [];
  return (
    <Card bordered={false} title={t('workplace.notify.title')} data-testid="notify-card">
      <WidgetState query={notify} empty={list.length === 0} emptyText={t('workplace.notify.empty')} testId="notify">
        {list.map((item) => (
          <div
            key={item.key}
            className={styles.notifyRow}
            role="link"
            tabIndex={0}
            data-testid="notify-item"
            data-key={item.key}
            onClick={() => navigate(item.link)}
            onKeyDown={(e) => e.key === 'Enter' && navigate(item.link)}
          >
            <Badge color={levelColor[item.level]} />
            <span className={styles.notifyText}>{t(`workplace.notify.${item.key}`)}</span>
            <span className={styles.notifyCount} data-level={item.level}>
              {item.count.toLocaleString()}
            </span>
            <IconRight />
          </div>
        ))}
      </WidgetState>
    </Card>
  );
}
