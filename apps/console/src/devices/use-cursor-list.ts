import { useMemo, useRef, useState } from 'react';
import { Message } from '@arco-design/web-react';
import type { UseQueryResult } from '@tanstack/react-query';
import { CursorPages } from './cursor-pages.ts';

/** What a cursor-paged list call takes besides its filters. */
export type CursorQuery = { pageSize: number } & ({ cursor: string } | { page: number });

interface CursorPage {
  nextCursor: string | null;
}

/**
 * A server-paged list whose pages continue by keyset cursor (see CursorPages): page, page size,
 * the query for the list hook, and the table's state. The page belongs to the filters it was
 * chosen under, so new filters (from the form or from a link) start again at page 1 without the
 * page having to say so.
 */
export function useCursorList<F extends object, P extends CursorPage>(filters: F, useList: (query: F & CursorQuery) => UseQueryResult<P>) {
  const signature = JSON.stringify(filters);
  const [paging, setPaging] = useState({ page: 1, pageSize: 20, signature });
  const page = paging.signature === signature ? paging.page : 1;
  const { pageSize } = paging;
  const cursors = useRef(new CursorPages()).current;
  cursors.reset(JSON.stringify({ signature, pageSize }));
  const query = useMemo(() => ({ ...filters, pageSize, ...cursors.paramsFor(page) }) as F & CursorQuery, [filters, pageSize, page, cursors]);
  const list = useList(query);
  if (list.data && !list.isPlaceholderData) cursors.remember(page, list.data.nextCursor);
  return {
    list,
    page,
    pageSize,
    /** The list is (re)loading for what is asked, not just refreshing what is shown. */
    loading: list.isLoading || (list.isFetching && list.isPlaceholderData),
    /** Nothing to show because the call failed. */
    error: list.isError && !list.data,
    /** The table's pagination: a new page size starts at page 1. */
    onPage: (nextPage: number, nextSize: number) => setPaging({ page: nextSize === pageSize ? nextPage : 1, pageSize: nextSize, signature }),
  };
}

/** A CSV export button's state: busy while the file streams, a toast when it is saved (failures toast through the request policy). */
export function useExport(download: () => Promise<void>, doneMessage: string) {
  const [exporting, setExporting] = useState(false);
  const run = async () => {
    setExporting(true);
    try {
      await download();
      Message.success(doneMessage);
    } catch {
      // The request policy has shown the error already.
    } finally {
      setExporting(false);
    }
  };
  return { exporting, run: () => void run() };
}

/** `20260504-132210`: a file name's time stamp in the viewer's clock. */
export function fileStamp(date: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}${p(date.getMonth() + 1)}${p(date.getDate())}-${p(date.getHours())}${p(date.getMinutes())}${p(date.getSeconds())}`;
}
