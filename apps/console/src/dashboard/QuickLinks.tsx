import type { ReactNode } from 'react';
import { Card, Grid, Typography } from '@arco-design/web-react';
import { IconApps, IconEmail, IconHistory, IconMessage, IconUser, IconUserGroup } from '@arco-design/web-react/icon';
import { useNavigate } from 'react-router';
import { flattenRoutes, menuForRole } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { useSession } from '../session/session.store.ts';
import styles from './workplace.module.css';

const icons: Record<string, ReactNode> = {
  'system-user': <IconUserGroup />,
  'system-log': <IconHistory />,
  'email-log': <IconEmail />,
  'user-center': <IconUser />,
  'user-messages': <IconMessage />,
};

/** Every area the current role may open (the same rule as the menu), one click away. */
export function QuickLinks() {
  const t = useT();
  const navigate = useNavigate();
  const role = useSession((s) => s.user?.role);
  const links = flattenRoutes(menuForRole(role)).filter((route) => route.name !== 'workplace' && !route.meta.hideInMenu);
  return (
    <Card bordered={false} title={t('workplace.quickLinks')}>
      <Grid.Row gutter={[12, 12]}>
        {links.map((route) => (
          <Grid.Col key={route.name} xs={12} sm={8} md={6} lg={8} xl={6} xxl={4}>
            <button type="button" className={styles.link} data-route={route.name} onClick={() => navigate(route.fullPath)}>
              <span className={styles.linkIcon}>{icons[route.name] ?? <IconApps />}</span>
              <Typography.Text ellipsis style={{ margin: 0 }}>
                {t(route.meta.locale)}
              </Typography.Text>
            </button>
          </Grid.Col>
        ))}
      </Grid.Row>
    </Card>
  );
}
