import { useState } from 'react';
import { Card } from '@arco-design/web-react';
import { useSystemLogs } from './system-log.api.ts';
import { SystemLogFilters, type SystemLogFilterValues } from './SystemLogFilters.tsx';
import { SystemLogTable } from './SystemLogTable.tsx';

/** System → system log: every audited sign-in and change, filtered on the server. */
export default function SystemLogPage() {
  const [filters, setFilters] = useState<SystemLogFilterValues>({});
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(20);
  const logs = useSystemLogs({ page, pageSize, ...filters });
  return (
    <Card bordered={false}>
      <div style={{ marginBottom: 16 }}>
        <SystemLogFilters
          value={filters}
          onChange={(next) => {
            setFilters(next);
            setPage(1);
          }}
        />
      </div>
      <SystemLogTable
        data={logs.data}
        loading={logs.isFetching}
        page={page}
        pageSize={pageSize}
        onPage={(nextPage, nextSize) => {
          setPage(nextSize === pageSize ? nextPage : 1);
          setPageSize(nextSize);
        }}
      />
    </Card>
  );
}
