import { Button, Popconfirm, Space, Typography } from '@arco-design/web-react';
import { useT } from '../locale/i18n.ts';
import { SessionsTable } from './SessionsTable.tsx';
import { useMySessions, useRevokeMySession, useRevokeOtherSessions } from './two-factor.api.ts';

/** User center: my signed-in browsers; sign out one, or every one but this. */
export function MySessions() {
  const t = useT();
  const sessions = useMySessions();
  const revoke = useRevokeMySession();
  const revokeOthers = useRevokeOtherSessions();
  return (
    <section className="two-factor" data-testid="my-sessions">
      <Space style={{ justifyContent: 'space-between', width: '100%' }}>
        <Typography.Title heading={6}>{t('twoFactor.sessions.title')}</Typography.Title>
        <Popconfirm title={t('twoFactor.sessions.revokeOthersConfirm')} onOk={() => revokeOthers.mutate({})}>
          <Button size="small">{t('twoFactor.sessions.revokeOthers')}</Button>
        </Popconfirm>
      </Space>
      <SessionsTable sessions={sessions.data ?? []} loading={sessions.isLoading} onRevoke={(sid) => revoke.mutate(sid)} />
    </section>
  );
}
