import { Button, Card, Table, Tag, Typography, type TableColumnProps } from '@arco-design/web-react';
import { namedExpandIcon } from '../components/a11y.tsx';
import { IconDownload } from '@arco-design/web-react/icon';
import { permissions, type UserLog } from '@mowerline/contract';
import { useCursorList, useExport } from '../devices/use-cursor-list.ts';
import { useUrlFilters } from '../router/use-url-filters.ts';
import { useLocaleStore, useT } from '../locale/i18n.ts';
import { useFormatTime } from '../locale/format.ts';
import { Permission } from '../permission/Permission.tsx';
import { useSettings } from '../settings/settings.store.ts';
import { downloadUserLog, useUserLog } from './end-users.api.ts';
import { countryName, logActionLabel, resultColor } from './labels.ts';
import { UserLogFilters, type UserLogFilterValues } from './UserLogFilters.tsx';
import '../devices/devices.css';
import './end-users.css';

/** A link from the user drawer (`?userId=`) or elsewhere (`?email=`, `?sn=`) opens the log filtered. */
function filterFromUrl(params: URLSearchParams): UserLogFilterValues {
  const userId = Number(params.get('userId')) || undefined;
  return { userId, email: params.get('email') || undefined, sn: params.get('sn') || undefined };
}

function Detail({ row }: { row: UserLog }) {
  return (
    <pre data-testid="user-log-detail" style={{ margin: 0, fontSize: 12, whiteSpace: 'pre-wrap', wordBreak: 'break-all', color: 'var(--color-text-2)' }}>
      {JSON.stringify(row.detail, null, 2)}
    </pre>
  );
}

/** Operation → user log: every app-user action with its result, address and country; CSV export. */
export default function UserLogPage() {
  const t = useT();
  const locale = useLocaleStore((s) => s.locale);
  const { dateTime } = useFormatTime();
  const pinned = useSettings((s) => s.device !== 'mobile');
  const [filters, setFilters] = useUrlFilters(filterFromUrl);
  const { list: log, page, pageSize, loading, onPage } = useCursorList(filters, useUserLog);
  const csv = useExport(() => downloadUserLog(filters), t('userLog.exported'));

  const columns: TableColumnProps<UserLog>[] = [
    { title: t('userLog.column.at'), dataIndex: 'at', width: 180, render: (at: string) => dateTime(at) },
    {
      title: t('userLog.column.user'),
      dataIndex: 'email',
      width: 240,
      ellipsis: true,
      render: (email: string, row) => (email ? <span title={row.userId ? `#${row.userId}` : undefined}>{email}</span> : <Typography.Text type="secondary">{row.userId ? `#${row.userId}` : '-'}</Typography.Text>),
    },
    { title: t('userLog.column.action'), dataIndex: 'action', width: 170, render: (a: string) => <span data-action={a}>{logActionLabel(t, a)}</span> },
    { title: t('userLog.column.sn'), dataIndex: 'sn', width: 160, render: (sn: string) => (sn ? <span className="end-user-mono">{sn}</span> : '-') },
    { title: t('userLog.column.ip'), dataIndex: 'ip', width: 140, render: (ip: string) => ip || '-' },
    { title: t('userLog.column.country'), dataIndex: 'country', width: 140, render: (c: string) => (c ? <span title={c}>{countryName(c, locale)}</span> : '-') },
    {
      title: t('userLog.column.result'),
      dataIndex: 'result',
      width: 100,
      fixed: pinned ? 'right' : undefined,
      render: (r: UserLog['result']) => (
        <Tag color={resultColor[r]} data-result={r}>
          {t(`userLog.result.${r}`)}
        </Tag>
      ),
    },
  ];
  const total = log.data?.total ?? 0;
  return (
    <Card
      title={t('menu.operation.userLog')}
      extra={
        <Permission roles={permissions.endUsersAdmin}>
          <Button icon={<IconDownload />} loading={csv.exporting} onClick={csv.run}>
            {t('userLog.export')}
          </Button>
        </Permission>
      }
    >
      <UserLogFilters
        value={filters}
        onChange={setFilters}
      />
      <Table
        rowKey="id"
        columns={columns}
        data={log.data?.list ?? []}
        loading={loading}
        border={false}
        scroll={{ x: 1200 }}
        data-testid="user-log-table"
        expandedRowRender={(row) => (Object.keys(row.detail).length > 0 ? <Detail row={row} /> : null)}
        expandProps={{ rowExpandable: (row) => Object.keys(row.detail).length > 0, width: 48, icon: namedExpandIcon((open) => t(open ? 'common.collapseRow' : 'common.expandRow')) }}
        noDataElement={
          <div className="devices-empty" data-testid={log.isError ? 'user-log-error' : 'user-log-empty'}>
            {t(log.isError ? 'endUser.loadFailed' : 'userLog.empty')}
          </div>
        }
        pagination={{
          current: page,
          pageSize,
          total,
          sizeCanChange: true,
          sizeOptions: [10, 20, 50, 100],
          showTotal: () => t(log.data?.totalExact === false ? 'endUser.totalAbout' : 'endUser.total', { total: total.toLocaleString() }),
        }}
        onChange={(pagination) => onPage(pagination.current ?? 1, pagination.pageSize ?? pageSize)}
      />
    </Card>
  );
}
