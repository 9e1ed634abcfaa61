import { Button, Drawer, Message, Popconfirm } from '@arco-design/web-react';
import type { StaffUser } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { useSession } from '../session/session.store.ts';
import { SessionsTable } from './SessionsTable.tsx';
import { useResetStaffFactors, useRevokeStaffSession, useStaffSessions } from './two-factor.api.ts';

/** Staff page: a member's signed-in browsers (sign any out) and the reset of their second factors (never one's own). */
export function StaffSecurityDrawer({ row, onClose }: { row: StaffUser; onClose: () => void }) {
  const t = useT();
  const me = useSession((s) => s.user?.id);
  const sessions = useStaffSessions(row.id);
  const revoke = useRevokeStaffSession();
  const reset = useResetStaffFactors();
  return (
    <Drawer width={760} visible title={t('twoFactor.staff.sessionsOf', { name: row.name })} onCancel={onClose} footer={null} data-testid="staff-security">
      <SessionsTable sessions={sessions.data ?? []} loading={sessions.isLoading} onRevoke={(sid) => revoke.mutate({ id: row.id, sid })} />
      {row.id !== me ? (
        <Popconfirm title={t('twoFactor.staff.resetConfirm')} onOk={() => reset.mutate(row.id, { onSuccess: () => Message.success(t('twoFactor.staff.resetDone')) })}>
          <Button status="danger" style={{ marginTop: 16 }} loading={reset.isPending}>
            {t('twoFactor.staff.reset')}
          </Button>
        </Popconfirm>
      ) : null}
    </Drawer>
  );
}
