import { useState } from 'react';
import { Button, Message, Popconfirm, Space } from '@arco-design/web-react';
import type { StaffUser, StaffUpdateBody } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { useSession } from '../session/session.store.ts';
import { StaffSecurityDrawer } from '../two-factor/StaffSecurityDrawer.tsx';
import { useUpdateStaff } from './staff.api.ts';

interface Props {
  row: StaffUser;
  onEdit(row: StaffUser): void;
  onResetPassword(row: StaffUser): void;
}

/** Per-row actions. Status changes ask first; refusals (last admin, own account) come from the server's policy toast. */
export function StaffRowActions({ row, onEdit, onResetPassword }: Props) {
  const t = useT();
  const me = useSession((s) => s.user?.id);
  const update = useUpdateStaff();
  const [security, setSecurity] = useState(false);
  // The row may leave the list once its status changes (e.g. under the pending filter) and this
  // component with it, so the toast hangs on the promise, not on a per-call callback that would be
  // dropped on unmount. A refusal was already shown by the request policy.
  const setStatus = (status: StaffUpdateBody['status'], done: string) =>
    update
      .mutateAsync({ id: row.id, status })
      .then(() => Message.success(t(done, { name: row.name })))
      .catch(() => undefined);

  const confirm = (title: string, action: () => void, label: string, danger = false) => (
    <Popconfirm title={t(title, { name: row.name })} onOk={action} okButtonProps={{ status: danger ? 'danger' : 'default' }}>
      <Button type="text" size="small" status={danger ? 'danger' : 'default'} loading={update.isPending}>
        {t(label)}
      </Button>
    </Popconfirm>
  );

  return (
    <Space size={0}>
      <Button type="text" size="small" onClick={() => onEdit(row)}>
        {t('staff.action.edit')}
      </Button>
      {row.status === 'pending' && (
        <>
          {confirm('staff.confirm.approve', () => setStatus('active', 'staff.done.approved'), 'staff.action.approve')}
          {confirm('staff.confirm.reject', () => setStatus('disabled', 'staff.done.rejected'), 'staff.action.reject', true)}
        </>
      )}
      {row.status !== 'pending' && (
        <Button type="text" size="small" onClick={() => onResetPassword(row)}>
          {t('staff.action.resetPassword')}
        </Button>
      )}
      {row.status === 'active' && row.id !== me &&
        confirm('staff.confirm.disable', () => setStatus('disabled', 'staff.done.disabled'), 'staff.action.disable', true)}
      {row.status === 'disabled' && confirm('staff.confirm.enable', () => setStatus('active', 'staff.done.enabled'), 'staff.action.enable')}
      {row.status !== 'pending' && (
        <Button type="text" size="small" onClick={() => setSecurity(true)}>
          {t('twoFactor.staff.sessions')}
        </Button>
      )}
      {security ? <StaffSecurityDrawer row={row} onClose={() => setSecurity(false)} /> : null}
    </Space>
  );
}
