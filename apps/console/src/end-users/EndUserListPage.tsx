import { useMemo, useRef, useState } from 'react';
import { Button, Card, Message } from '@arco-design/web-react';
import { IconDownload } from '@arco-design/web-react/icon';
import { permissions } from '@mowerline/contract';
import { CursorPages } from '../devices/cursor-pages.ts';
import { useUrlFilters } from '../router/use-url-filters.ts';
import { useT } from '../locale/i18n.ts';
import { Permission } from '../permission/Permission.tsx';
import { downloadEndUsers, useEndUserList } from './end-users.api.ts';
import { EndUserDrawer } from './EndUserDrawer.tsx';
import { EndUserFilters, type EndUserFilterValues } from './EndUserFilters.tsx';
import { EndUserTable } from './EndUserTable.tsx';
import '../devices/devices.css';
import './end-users.css';

/** A link names a user by e-mail (the device detail's owner) or by keyword. */
function filterFromUrl(params: URLSearchParams): EndUserFilterValues {
  return { keyword: params.get('keyword') || undefined };
}

/** Operation → users: the app's users, filtered and paged on the server; CSV export; detail drawer with support actions. */
export default function EndUserListPage() {
  const t = useT();
  const [page, setPage] = useState(1);
  const [filters, setFilters] = useUrlFilters(filterFromUrl, () => setPage(1));
  const [pageSize, setPageSize] = useState(20);
  const [openId, setOpenId] = useState<number>();
  const [exporting, setExporting] = useState(false);
  const cursors = useRef(new CursorPages()).current;
  cursors.reset(JSON.stringify({ filters, pageSize }));
  const query = useMemo(() => ({ ...filters, pageSize, ...cursors.paramsFor(page) }), [filters, pageSize, page, cursors]);
  const list = useEndUserList(query);
  if (list.data && !list.isPlaceholderData) cursors.remember(page, list.data.nextCursor);

  const exportCsv = async () => {
    setExporting(true);
    try {
      await downloadEndUsers(filters);
      Message.success(t('endUser.exported'));
    } finally {
      setExporting(false);
    }
  };

  return (
    <Card
      title={t('menu.operation.user')}
      extra={
        <Permission roles={permissions.endUsersAdmin}>
          <Button icon={<IconDownload />} loading={exporting} onClick={() => void exportCsv().catch(() => {})}>
            {t('endUser.do.export')}
          </Button>
        </Permission>
      }
    >
      <EndUserFilters
        value={filters}
        onChange={(next) => {
          setFilters(next);
          setPage(1);
        }}
      />
      <EndUserTable
        data={list.data}
        loading={list.isLoading || (list.isFetching && list.isPlaceholderData)}
        error={list.isError && !list.data}
        page={page}
        pageSize={pageSize}
        onPage={(nextPage, nextSize) => {
          setPage(nextSize === pageSize ? nextPage : 1);
          setPageSize(nextSize);
        }}
        onOpen={setOpenId}
      />
      <EndUserDrawer id={openId} onClose={() => setOpenId(undefined)} />
    </Card>
  );
}
