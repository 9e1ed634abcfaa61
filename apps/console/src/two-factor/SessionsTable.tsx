import { Button, Popconfirm, Table, Tag, type TableColumnProps } from '@arco-design/web-react';
import type { StaffSession } from '@mowerline/contract';
import { useLocaleStore, useT } from '../locale/i18n.ts';

/** Signed-in browsers: device, address, country, sign-in and last seen; each can be signed out. */
export function SessionsTable({ sessions, loading, onRevoke }: { sessions: StaffSession[]; loading: boolean; onRevoke: (sid: string) => void }) {
  const t = useT();
  const locale = useLocaleStore((s) => s.locale);
  const time = (iso: string) => new Date(iso).toLocaleString(locale);
  const columns: TableColumnProps<StaffSession>[] = [
    {
      title: t('twoFactor.sessions.device'),
      dataIndex: 'device',
      render: (_, s) => (
        <span title={s.userAgent}>
          {s.device} {s.current ? <Tag color="green">{t('twoFactor.sessions.current')}</Tag> : null}
        </span>
      ),
    },
    { title: t('twoFactor.sessions.ip'), dataIndex: 'ip' },
    { title: t('twoFactor.sessions.country'), dataIndex: 'country', render: (c: string) => c || '—' },
    { title: t('twoFactor.sessions.signedIn'), dataIndex: 'createdAt', render: time },
    { title: t('twoFactor.sessions.lastSeen'), dataIndex: 'lastSeenAt', render: time },
    {
      title: t('twoFactor.sessions.actions'),
      render: (_, s) =>
        s.current ? null : (
          <Popconfirm title={t('twoFactor.sessions.revokeConfirm')} onOk={() => onRevoke(s.id)}>
            <Button size="mini" status="danger">
              {t('twoFactor.sessions.revoke')}
            </Button>
          </Popconfirm>
        ),
    },
  ];
  return <Table rowKey="id" size="small" columns={columns} data={sessions} loading={loading} pagination={false} data-testid="sessions-table" />;
}
