import { Card, Empty, Link, Result, Skeleton, Space, Tag, Timeline, Tooltip, Typography } from '@arco-design/web-react';
import { IconLock } from '@arco-design/web-react/icon';
import { useNavigate } from 'react-router';
import { useT } from '../locale/i18n.ts';
import { useFormatTime } from '../locale/format.ts';
import { usePermission } from '../permission/usePermission.ts';
import { permissions } from '@mowerline/contract';
import { useSystemLogs } from '../system-log/system-log.api.ts';
import { actionLabel, targetLabel } from '../system-log/audit-action.ts';
import { routePath } from './route-path.ts';

const RECENT = 6;

function ActivityTimeline() {
  const t = useT();
  const navigate = useNavigate();
  const { dateTime, relative } = useFormatTime();
  const logs = useSystemLogs({ page: 1, pageSize: RECENT });
  const extra = <Link onClick={() => navigate(routePath('system-log'))}>{t('workplace.viewAll')}</Link>;

  let body;
  if (!logs.data) body = <Skeleton animation text={{ rows: 4 }} />;
  else if (logs.data.list.length === 0) body = <Empty description={t('workplace.activity.empty')} />;
  else
    body = (
      <Timeline>
        {logs.data.list.map((log) => (
          <Timeline.Item key={log.id} dotColor={log.result === 'failure' ? 'rgb(var(--red-6))' : undefined}>
            <Space size={6} wrap>
              <Typography.Text bold>{log.actorName || t('workplace.activity.anonymous')}</Typography.Text>
              <span data-action={log.action}>{actionLabel(t, log.action)}</span>
              {log.targetName && (
                <Typography.Text type="secondary">
                  {targetLabel(t, log.targetType)} {log.targetName}
                </Typography.Text>
              )}
              {log.result === 'failure' && <Tag color="red" size="small">{t('systemLog.result.failure')}</Tag>}
            </Space>
            <div>
              <Tooltip content={dateTime(log.at)}>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {relative(log.at)} · {log.ip}
                </Typography.Text>
              </Tooltip>
            </div>
          </Timeline.Item>
        ))}
      </Timeline>
    );
  return (
    <Card bordered={false} title={t('workplace.activity.title')} extra={extra}>
      {body}
    </Card>
  );
}

/** The system log is for administrators (server-enforced); everyone else learns where their record lives. */
function ActivityNotice() {
  const t = useT();
  const navigate = useNavigate();
  return (
    <Card bordered={false} title={t('workplace.activity.title')}>
      <Result
        data-testid="activity-notice"
        icon={<IconLock style={{ color: 'rgb(var(--ml-primary-text))' }} />}
        title={t('workplace.activity.adminOnly')}
        subTitle={t('workplace.activity.adminOnlyHint')}
        extra={<Link onClick={() => navigate(`${routePath('user-center')}?tab=security`)}>{t('workplace.activity.security')}</Link>}
      />
    </Card>
  );
}

export function RecentActivity() {
  const { can } = usePermission();
  return can(permissions.systemLog) ? <ActivityTimeline /> : <ActivityNotice />;
}
