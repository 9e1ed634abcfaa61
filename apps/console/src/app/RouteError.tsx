import { Button } from '@arco-design/web-react';
import { IconExclamationCircleFill } from '@arco-design/web-react/icon';
import { useRouteError } from 'react-router';
import { useT } from '../locale/i18n.ts';

/**
 * A page that failed to render or to load. After a deployment the old chunk names are gone, so a
 * failed dynamic import is the usual cause: reloading fetches the new ones. (Plain markup rather
 * than Arco's Result, whose illustrations would weigh on the sign-in page's first load.)
 */
export function RouteError() {
  const error = useRouteError();
  const t = useT();
  console.error(error);
  return (
    <div className="route-error" role="alert">
      <IconExclamationCircleFill className="route-error-icon" />
      <div className="route-error-title">{t('app.error.title')}</div>
      <div className="route-error-text">{t('app.error.content')}</div>
      <Button type="primary" onClick={() => window.location.reload()}>
        {t('app.error.reload')}
      </Button>
    </div>
  );
}
