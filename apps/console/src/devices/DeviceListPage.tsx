import { useEffect, useMemo, useRef, useState } from 'react';
import { Button, Card, Space, Typography } from '@arco-design/web-react';
import { IconDownload, IconTag } from '@arco-design/web-react/icon';
import { useSearchParams } from 'react-router';
import { parseTagQuery, permissions, type DeviceSort, type GroupFilter } from '@mowerline/contract';
import { BulkTagModal } from '../device-groups/BulkTagModal.tsx';
import { Permission } from '../permission/Permission.tsx';
import { useT } from '../locale/i18n.ts';
import { CursorPages } from './cursor-pages.ts';
import { DeviceDetailDrawer } from './DeviceDetailDrawer.tsx';
import { DeviceFilters, type DeviceFilterValues } from './DeviceFilters.tsx';
import { DeviceTable } from './DeviceTable.tsx';
import { LIVE_REFRESH_MS, useDeviceList, useOnlineNow } from './devices.api.ts';
import { downloadDeviceCsv } from './export-csv.ts';
import './devices.css';

/** Whether the list's filters name any condition (bulk tagging every device is not offered here). */
function hasCondition(f: DeviceFilterValues): boolean {
  return Object.values(f).some((v) => v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0));
}

/** The list's filters as the saved-filter form bulk tagging takes (tags as conditions; a group by its id is not part of it). */
function savedFilter(f: DeviceFilterValues): GroupFilter {
  const { tag, attr, groupId: _groupId, ...rest } = f;
  return { ...rest, tags: tag ? parseTagQuery(tag) : undefined, attributes: attr ? parseTagQuery(attr) : undefined };
}

/** Device → list: filtered, sorted and paged on the server, refreshed live; CSV export; detail drawer. */
export default function DeviceListPage() {
  const t = useT();
  // `?sn=` (a link from an app user's mowers) filters to that mower and opens it.
  const [search] = useSearchParams();
  const linkedSn = search.get('sn')?.toUpperCase() || undefined;
  // `?groupId=` (a link from the groups page) lists that group's devices.
  const linkedGroup = Number(search.get('groupId')) || undefined;
  const [filters, setFilters] = useState<DeviceFilterValues>(linkedSn ? { sn: linkedSn } : linkedGroup ? { groupId: linkedGroup } : {});
  const [selected, setSelected] = useState<string[]>([]);
  const [tagging, setTagging] = useState(false);
  const [sort, setSort] = useState<DeviceSort>('sn');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(20);
  const [openSn, setOpenSn] = useState<string | undefined>(linkedSn);
  const [exporting, setExporting] = useState(false);
  // Kept alive in the tab bar, the page sees later links as a changed parameter.
  const seenSn = useRef(linkedSn);
  useEffect(() => {
    if (!linkedSn || linkedSn === seenSn.current) return;
    seenSn.current = linkedSn;
    setFilters({ sn: linkedSn });
    setPage(1);
    setOpenSn(linkedSn);
  }, [linkedSn]);
  const seenGroup = useRef(linkedGroup);
  useEffect(() => {
    if (!linkedGroup || linkedGroup === seenGroup.current) return;
    seenGroup.current = linkedGroup;
    setFilters({ groupId: linkedGroup });
    setPage(1);
  }, [linkedGroup]);
  const cursors = useRef(new CursorPages()).current;
  cursors.reset(JSON.stringify({ filters, sort, pageSize }));
  const query = useMemo(() => ({ ...filters, sort, pageSize, ...cursors.paramsFor(page) }), [filters, sort, pageSize, page, cursors]);
  const list = useDeviceList(query);
  const online = useOnlineNow();
  if (list.data && !list.isPlaceholderData) cursors.remember(page, list.data.nextCursor);

  const exportCsv = async () => {
    setExporting(true);
    try {
      await downloadDeviceCsv({ ...filters, sort });
    } finally {
      setExporting(false);
    }
  };

  return (
    <Card
      title={t('menu.device.list')}
      extra={
        <Space size={16}>
          {online.data && (
            <Typography.Text data-testid="online-now">
              {t('devices.onlineNow', { online: online.data.online.toLocaleString(), total: online.data.total.toLocaleString() })}
            </Typography.Text>
          )}
          <Typography.Text type="secondary" className="devices-live">
            <span className="devices-live-dot" />
            {t('devices.live', { seconds: LIVE_REFRESH_MS / 1000 })}
          </Typography.Text>
          <Permission roles={permissions.deviceGroupsWrite}>
            <Button icon={<IconTag />} onClick={() => setTagging(true)} disabled={selected.length === 0 && !hasCondition(filters)} title={t('tags.bulk.needFilter')}>
              {t('tags.bulk')}
            </Button>
          </Permission>
          <Button icon={<IconDownload />} loading={exporting} onClick={exportCsv}>
            {t('devices.action.export')}
          </Button>
        </Space>
      }
    >
      <DeviceFilters
        value={filters}
        onChange={(next) => {
          setFilters(next);
          setSelected([]);
          setPage(1);
        }}
      />
      <DeviceTable
        data={list.data}
        loading={list.isLoading || (list.isFetching && list.isPlaceholderData)}
        page={page}
        pageSize={pageSize}
        sort={sort}
        onPage={(nextPage, nextSize) => {
          setPage(nextSize === pageSize ? nextPage : 1);
          setPageSize(nextSize);
        }}
        onSort={(next) => {
          setSort(next);
          setPage(1);
        }}
        onOpen={setOpenSn}
        selected={selected}
        onSelect={setSelected}
      />
      <BulkTagModal
        visible={tagging}
        selected={selected}
        filter={savedFilter(filters)}
        matching={list.data?.total ?? 0}
        onClose={() => {
          setTagging(false);
          setSelected([]);
        }}
      />
      <DeviceDetailDrawer sn={openSn} onClose={() => setOpenSn(undefined)} />
    </Card>
  );
}
