import { useState } from 'react';
import { Button, Card, Radio } from '@arco-design/web-react';
import { IconDownload } from '@arco-design/web-react/icon';
import { useSearchParams } from 'react-router';
import { permissions, ticketViews } from '@mowerline/contract';
import { useCursorList, useExport } from '../devices/use-cursor-list.ts';
import { useUrlFilters } from '../router/use-url-filters.ts';
import { useT } from '../locale/i18n.ts';
import { Permission } from '../permission/Permission.tsx';
import { filtersFromUrl, filtersToUrl, type TicketFilterValues } from './ticket-filters.ts';
import { downloadTickets, useTicketList } from './tickets.api.ts';
import { TicketBulkBar } from './TicketBulkBar.tsx';
import { TicketFilters } from './TicketFilters.tsx';
import { TicketTable } from './TicketTable.tsx';
import '../devices/devices.css';
import './tickets.css';

const ALL = 'all';

/**
 * Tickets → list: the views "mine", "unassigned" and "breaching" over the filters; every filter is
 * in the URL. Bulk assign and close of the selected rows; CSV export of the filtered list.
 */
export default function TicketListPage() {
  const t = useT();
  const [, setSearchParams] = useSearchParams();
  const [filters, setFilters] = useUrlFilters(filtersFromUrl);
  const [selected, setSelected] = useState<number[]>([]);
  const { list, ...paging } = useCursorList(filters, useTicketList);
  const csv = useExport(() => downloadTickets(filters), t('ticket.exported'));

  const apply = (next: TicketFilterValues) => {
    setFilters(next);
    setSelected([]);
    setSearchParams(filtersToUrl(next), { replace: true });
  };

  return (
    <Card
      className="ticket-page"
      title={t('menu.ticket.list')}
      extra={
        <Permission roles={permissions.ticketAdmin}>
          <Button icon={<IconDownload />} loading={csv.exporting} onClick={csv.run}>
            {t('ticket.do.export')}
          </Button>
        </Permission>
      }
    >
      <Radio.Group
        type="button"
        className="ticket-views"
        aria-label={t('ticket.view.label')}
        value={filters.view ?? ALL}
        onChange={(view: string) => apply({ ...filters, view: view === ALL ? undefined : (view as TicketFilterValues['view']) })}
      >
        <Radio value={ALL}>{t('ticket.view.all')}</Radio>
        {ticketViews.map((view) => (
          <Radio key={view} value={view} data-view={view}>
            {t(`ticket.view.${view}`)}
          </Radio>
        ))}
      </Radio.Group>
      <TicketFilters value={filters} onChange={apply} />
      <TicketBulkBar selected={selected} onDone={() => setSelected([])} />
      <TicketTable data={list.data} {...paging} selected={selected} onSelect={setSelected} />
    </Card>
  );
}
