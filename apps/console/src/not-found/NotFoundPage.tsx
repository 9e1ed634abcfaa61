import { Button, Result } from '@arco-design/web-react';
import { useNavigate } from 'react-router';
import { DEFAULT_ROUTE } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import './not-found.css';

/** The catch-all page (and what the layout shows for a route without a page). */
export default function NotFoundPage({ embedded = false }: { embedded?: boolean }) {
  const t = useT();
  const navigate = useNavigate();
  return (
    <div className={embedded ? 'not-found' : 'not-found not-found-page'} data-testid="not-found">
      <Result
        status="404"
        title="404"
        subTitle={t('notFound.subTitle')}
        extra={
          <Button type="primary" onClick={() => navigate(DEFAULT_ROUTE.fullPath)}>
            {t('notFound.back')}
          </Button>
        }
      />
    </div>
  );
}
