import { useState } from 'react';
import { Button, Card } from '@arco-design/web-react';
import { IconDownload } from '@arco-design/web-react/icon';
import { permissions } from '@mowerline/contract';
import { useCursorList, useExport } from '../devices/use-cursor-list.ts';
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
  const [filters, setFilters] = useUrlFilters(filterFromUrl);
  const [openId, setOpenId] = useState<number>();
  const { list, ...paging } = useCursorList(filters, useEndUserList);

  const csv = useExport(() => downloadEndUsers(filters), t('endUser.exported'));

  return (
    <Card
      title={t('menu.operation.user')}
      extra={
        <Permission roles={permissions.endUsersAdmin}>
          <Button icon={<IconDownload />} loading={csv.exporting} onClick={csv.run}>
            {t('endUser.do.export')}
          </Button>
        </Permission>
      }
    >
      <EndUserFilters
        value={filters}
        onChange={setFilters}
      />
      <EndUserTable
        data={list.data}
        {...paging}
        onOpen={setOpenId}
      />
      <EndUserDrawer id={openId} onClose={() => setOpenId(undefined)} />
    </Card>
  );
}
