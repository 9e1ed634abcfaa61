import { useEffect, useMemo, useRef, useState } from 'react';
import { Button, Card, Message } from '@arco-design/web-react';
import { IconDownload } from '@arco-design/web-react/icon';
import { useSearchParams } from 'react-router';
import { permissions } from '@mowerline/contract';
import { CursorPages } from '../devices/cursor-pages.ts';
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
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(20);
  const [filters, setFilters] = useUrlFilters(filterFromUrl, () => setPage(1));
  const [openId, setOpenId] = useState<number>();
  const [exporting, setExporting] = useState(false);
  const linkedId = Number(params.get('id')) || undefined;
  const search = params.toString();
  // Every arrival through a link with `?id=` opens that run, also when the page was open already.
  useEffect(() => {
    if (linkedId) setOpenId(linkedId);
  }, [linkedId, search]);
  const cursors = useRef(new CursorPages()).current;
  cursors.reset(JSON.stringify({ filters, pageSize }));
  const query = useMemo(() => ({ ...filters, pageSize, ...cursors.paramsFor(page) }), [filters, pageSize, page, cursors]);
  const list = useRuns(query);
  if (list.data && !list.isPlaceholderData) cursors.remember(page, list.data.nextCursor);

  const exportCsv = async () => {
    setExporting(true);
    try {
      await downloadRuns(filters);
      Message.success(t('taskRun.exported'));
    } finally {
      setExporting(false);
    }
  };

  return (
    <Card
      title={t('menu.task.record')}
      extra={
        <Permission roles={permissions.taskExport}>
          <Button icon={<IconDownload />} loading={exporting} onClick={() => void exportCsv().catch(() => {})}>
            {t('taskRun.do.export')}
          </Button>
        </Permission>
      }
    >
      <RunFilters
        value={filters}
        onChange={(next) => {
          setFilters(next);
          setPage(1);
        }}
      />
      <RunTable
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
      <RunDrawer id={openId} onOpen={setOpenId} onClose={() => setOpenId(undefined)} />
    </Card>
  );
}
