import { useEffect, useState } from 'react';
import { Alert, Button, Link } from '@arco-design/web-react';
import { IconPlus } from '@arco-design/web-react/icon';
import { useSearchParams } from 'react-router';
import { staffStatuses, type StaffStatus, type StaffUser } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { useStaffList } from './staff.api.ts';
import { Permission } from '../permission/Permission.tsx';
import { StaffFilters, type StaffFilterValues } from './StaffFilters.tsx';
import { StaffTable } from './StaffTable.tsx';
import { StaffFormModal } from './StaffFormModal.tsx';
import { ResetPasswordModal } from './ResetPasswordModal.tsx';

function statusParam(value: string | null): StaffStatus | undefined {
  return staffStatuses.find((status) => status === value);
}

/** Admins are mailed `#/system/system-user?status=pending`: the link opens the requests to approve. */
export function StaffAccounts() {
  const t = useT();
  const [params] = useSearchParams();
  const linkedStatus = statusParam(params.get('status'));
  const [filters, setFilters] = useState<StaffFilterValues>({ status: linkedStatus });
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(20);
  const [form, setForm] = useState<{ editing: StaffUser | null } | null>(null);
  const [resetting, setResetting] = useState<StaffUser | null>(null);

  // The page stays alive in the tab bar: a mailed link opened later shows exactly its requests,
  // and leaving the link (menu, tab) drops its status filter again.
  useEffect(() => {
    setFilters((current) => (linkedStatus ? { status: linkedStatus } : { ...current, status: undefined }));
    setPage(1);
  }, [linkedStatus]);

  const list = useStaffList({ page, pageSize, ...filters });
  const pending = useStaffList({ page: 1, pageSize: 1, status: 'pending' });
  const pendingCount = pending.data?.total ?? 0;

  const applyFilters = (next: StaffFilterValues) => {
    setFilters(next);
    setPage(1);
  };

  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
      {pendingCount > 0 && filters.status !== 'pending' && (
        <Alert
          type="warning"
          content={t('staff.pending.banner', { n: pendingCount })}
          action={
            <Link onClick={() => applyFilters({ status: 'pending' })}>{t('staff.pending.show')}</Link>
          }
        />
      )}
      <div style={{ display: 'flex', justifyContent: 'space-between', gap: 12, flexWrap: 'wrap' }}>
        <StaffFilters value={filters} onChange={applyFilters} />
        <Permission roles={['admin']}>
          <Button type="primary" icon={<IconPlus />} onClick={() => setForm({ editing: null })}>
            {t('staff.action.add')}
          </Button>
        </Permission>
      </div>
      <StaffTable
        data={list.data}
        loading={list.isFetching}
        page={page}
        pageSize={pageSize}
        onPage={(nextPage, nextSize) => {
          setPage(nextSize === pageSize ? nextPage : 1);
          setPageSize(nextSize);
        }}
        onEdit={(row) => setForm({ editing: row })}
        onResetPassword={setResetting}
      />
      <StaffFormModal visible={!!form} editing={form?.editing ?? null} onClose={() => setForm(null)} />
      <ResetPasswordModal target={resetting} onClose={() => setResetting(null)} />
    </div>
  );
}
