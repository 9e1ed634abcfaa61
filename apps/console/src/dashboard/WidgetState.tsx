import type { ReactNode } from 'react';
import { Alert, Button, Skeleton } from '@arco-design/web-react';
import { useT } from '../locale/i18n.ts';
import styles from './workplace.module.css';

/** Loading, error (with retry), empty, or the content: the states every workplace widget has. */
export function WidgetState({ query, empty, emptyText, testId, rows = 3, children }: { query: { isLoading: boolean; isError: boolean; data?: unknown; refetch(): unknown }; empty: boolean; emptyText: string; testId: string; rows?: number; children: ReactNode }) {
  const t = useT();
  if (query.isLoading) return <Skeleton animation text={{ rows }} data-testid={`${testId}-loading`} />;
  if (query.isError && query.data === undefined)
    return (
      <Alert
        type="error"
        data-testid={`${testId}-error`}
        content={t('workplace.loadFailed')}
        action={
          <Button size="mini" onClick={() => void query.refetch()}>
            {t('workplace.retry')}
          </Button>
        }
      />
    );
  if (empty)
    return (
      <div className={styles.empty} data-testid={`${testId}-empty`}>
        {emptyText}
      </div>
    );
  return <>{children}</>;
}
