import { useMemo, useState } from 'react';
import { Button, Card } from '@arco-design/web-react';
import { IconPlus } from '@arco-design/web-react/icon';
import { permissions, syncStates, type Schedule } from '@mowerline/contract';
import { useUrlFilters } from '../router/use-url-filters.ts';
import { useT } from '../locale/i18n.ts';
import { Permission } from '../permission/Permission.tsx';
import { ScheduleEditor } from './ScheduleEditor.tsx';
import { ScheduleFilters, type ScheduleFilterValues } from './ScheduleFilters.tsx';
import { ScheduleTable } from './ScheduleTable.tsx';
import { useSchedules } from './tasks.api.ts';
import '../devices/devices.css';
import './tasks.css';

/** A link names a mower (`?sn=`). */
// The workplace links to `?syncState=failed`.
const filterFromUrl = (params: URLSearchParams): ScheduleFilterValues => ({
  sn: params.get('sn')?.toUpperCase() || undefined,
  syncState: syncStates.find((s) => s === params.get('syncState')),
});

/** Tasks → schedules: every mower's schedules with their sync state; edit, enable/disable, re-send. */
export default function TaskListPage() {
  const t = useT();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(20);
  const [filters, setFilters] = useUrlFilters(filterFromUrl, () => setPage(1));
  const [editing, setEditing] = useState<Schedule>();
  const [creating, setCreating] = useState(false);
  const query = useMemo(() => ({ ...filters, page, pageSize }), [filters, page, pageSize]);
  const list = useSchedules(query);

  return (
    <Card
      title={t('menu.task.list')}
      extra={
        <Permission roles={permissions.taskSchedule}>
          <Button type="primary" icon={<IconPlus />} onClick={() => setCreating(true)}>
            {t('taskSchedule.new')}
          </Button>
        </Permission>
      }
    >
      <ScheduleFilters
        value={filters}
        onChange={(next) => {
          setFilters(next);
          setPage(1);
        }}
      />
      <ScheduleTable
        data={list.data}
        loading={list.isLoading || (list.isFetching && list.isPlaceholderData)}
        error={list.isError && !list.data}
        page={page}
        pageSize={pageSize}
        onPage={(nextPage, nextSize) => {
          setPage(nextSize === pageSize ? nextPage : 1);
          setPageSize(nextSize);
        }}
        onEdit={setEditing}
      />
      <ScheduleEditor
        schedule={editing}
        creating={creating}
        onClose={() => {
          setEditing(undefined);
          setCreating(false);
        }}
      />
    </Card>
  );
}
