import { useEffect, useState } from 'react';
import { Button, Card } from '@arco-design/web-react';
import { IconDownload } from '@arco-design/web-react/icon';
import { useSearchParams } from 'react-router';
import { permissions } from '@mowerline/contract';
import { useCursorList, useExport } from '../devices/use-cursor-list.ts';
import { useUrlFilters } from '../router/use-url-filters.ts';
import { useT } from '../locale/i18n.ts';
import { Permission } from '../permission/Permission.tsx';
import { RunDrawer } from './RunDrawer.tsx';
import { RunFilters, type RunFilterValues } from './RunFilters.tsx';
import { RunTable } from './RunTable.tsx';
import { downloadRuns, useRuns } from './tasks.api.ts';
import '../devices/devices.css';
import './tasks.css';

/** A link filters by mower or fault (`?sn=`, `?faultCode=`) and may open one run (`?id=`). */
function filterFromUrl(params: URLSearchParams): RunFilterValues {
  return { sn: params.get('sn')?.toUpperCase() || undefined, faultCode: params.get('faultCode')?.toUpperCase() || undefined };
}

/** Tasks → records: every run, newest first, filtered on the server; CSV export; a detail drawer with the path on the map. */
export default function TaskRecordPage() {
  const t = useT();
  const [params] = useSearchParams();
  const [filters, setFilters] = useUrlFilters(filterFromUrl);
  const [openId, setOpenId] = useState<number>();
  const linkedId = Number(params.get('id')) || undefined;
  const search = params.toString();
  // Every arrival through a link with `?id=` opens that run, also when the page was open already.
  useEffect(() => {
    if (linkedId) setOpenId(linkedId);
  }, [linkedId, search]);
  const { list, ...paging } = useCursorList(filters, useRuns);

  const csv = useExport(() => downloadRuns(filters), t('taskRun.exported'));

  return (
    <Card
      title={t('menu.task.record')}
      extra={
        <Permission roles={permissions.taskExport}>
          <Button icon={<IconDownload />} loading={csv.exporting} onClick={csv.run}>
            {t('taskRun.do.export')}
          </Button>
        </Permission>
      }
    >
      <RunFilters
        value={filters}
        onChange={setFilters}
      />
      <RunTable
        data={list.data}
        {...paging}
        onOpen={setOpenId}
      />
      <RunDrawer id={openId} onOpen={setOpenId} onClose={() => setOpenId(undefined)} />
    </Card>
  );
}
