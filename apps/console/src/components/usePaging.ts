import { useState } from 'react';
import type { PaginationProps } from '@arco-design/web-react';

/** Page and page size of a server-paged table, and the Table `pagination` prop that drives them. */
export function usePaging() {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(20);
  const pagination = (total: number, extra?: PaginationProps): PaginationProps => ({
    current: page,
    pageSize,
    total,
    showTotal: true,
    ...extra,
    onChange: (p, size) => {
      setPage(p);
      setPageSize(size);
    },
  });
  return { page, pageSize, setPage, pagination };
}
