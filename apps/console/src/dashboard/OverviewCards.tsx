import type { ReactNode } from 'react';
import { Card, Grid, Skeleton, Typography } from '@arco-design/web-react';
import { IconCustomerService, IconRobot, IconSchedule, IconUserGroup } from '@arco-design/web-react/icon';
import { useNavigate } from 'react-router';
import { useTaskOverview } from '../tasks/tasks.api.ts';
import { useOpenTicketCount } from '../tickets/tickets.api.ts';
import { useT } from '../locale/i18n.ts';
import { useActiveAppUsers, useOnlineSeries } from './dashboard.api.ts';
import { routePath } from './route-path.ts';
import { Sparkline } from './Sparkline.tsx';
import styles from './workplace.module.css';

interface CardProps {
  testId: string;
  icon: ReactNode;
  title: string;
  query: { isLoading: boolean; isError: boolean; data?: unknown };
  value: ReactNode;
  extra?: ReactNode;
  to: string;
}

/** One figure that opens its page; a failed figure says so instead of showing a stale or zero value. */
function OverviewCard({ testId, icon, title, query, value, extra, to }: CardProps) {
  const t = useT();
  const navigate = useNavigate();
  let body: ReactNode;
  if (query.isLoading) body = <Skeleton animation text={{ rows: 1, width: ['60%'] }} />;
  else if (query.isError && query.data === undefined) body = <Typography.Text type="error">{t('workplace.loadFailed')}</Typography.Text>;
  else body = <div className={styles.overviewValue}>{value}</div>;
  return (
    <Card bordered={false} hoverable className={styles.overviewCard} data-testid={testId} role="link" tabIndex={0} onClick={() => navigate(to)} onKeyDown={(e) => e.key === 'Enter' && navigate(to)}>
      <div className={styles.overviewHead}>
        <span className={styles.overviewIcon}>{icon}</span>
        <Typography.Text type="secondary">{title}</Typography.Text>
      </div>
      <div className={styles.overviewBody}>
        {body}
        {extra}
      </div>
    </Card>
  );
}

/**
 * The fleet at a glance: mowers online (with the last 24 hours), app users active today, mowing
 * runs in progress, and tickets still open (new, open or pending the customer). Critical exception
 * events are in the attention list below.
 */
export function OverviewCards() {
  const t = useT();
  const online = useOnlineSeries();
  const users = useActiveAppUsers();
  const tasks = useTaskOverview(1);
  const tickets = useOpenTicketCount();
  const span = { xs: 24, sm: 12, xl: 6 };
  return (
    <Grid.Row gutter={[16, 16]}>
      <Grid.Col {...span}>
        <OverviewCard
          testId="overview-online"
          icon={<IconRobot />}
          title={t('workplace.overview.online')}
          query={online}
          to={routePath('device-list')}
          value={
            <>
              {online.data?.online.toLocaleString()}
              <span className={styles.overviewTotal}> / {online.data?.total.toLocaleString()}</span>
            </>
          }
          extra={online.data && <Sparkline values={online.data.series.map((s) => s.online)} label={t('workplace.overview.onlineTrend')} />}
        />
      </Grid.Col>
      <Grid.Col {...span}>
        <OverviewCard testId="overview-app-users" icon={<IconUserGroup />} title={t('workplace.overview.appUsers')} query={users} to={routePath('operation-user')} value={users.data?.count.toLocaleString()} />
      </Grid.Col>
      <Grid.Col {...span}>
        <OverviewCard testId="overview-tasks" icon={<IconSchedule />} title={t('workplace.overview.tasksRunning')} query={tasks} to={routePath('task-record')} value={tasks.data?.runningNow.toLocaleString()} />
      </Grid.Col>
      <Grid.Col {...span}>
        <OverviewCard
          testId="overview-tickets"
          icon={<IconCustomerService />}
          title={t('workplace.overview.openTickets')}
          query={tickets}
          to={`${routePath('ticket-list')}?view=active`}
          value={tickets.data?.total.toLocaleString()}
        />
      </Grid.Col>
    </Grid.Row>
  );
}
