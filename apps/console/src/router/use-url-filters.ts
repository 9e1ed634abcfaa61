import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';

/**
 * Filters that a link can set through the query string (`?userId=…`, `?keyword=…`). Pages stay
 * alive in the tab bar, so a later link with other parameters must filter the open page again:
 * `onLinked` runs then (e.g. back to page 1).
 */
export function useUrlFilters<T>(fromUrl: (params: URLSearchParams) => T, onLinked?: () => void): [T, (next: T) => void] {
  const [params] = useSearchParams();
  const [filters, setFilters] = useState<T>(() => fromUrl(params));
  const search = params.toString();
  const seen = useRef(search);
  const latest = useRef({ fromUrl, onLinked });
  latest.current = { fromUrl, onLinked };
  useEffect(() => {
    if (seen.current === search) return;
    seen.current = search;
    setFilters(latest.current.fromUrl(new URLSearchParams(search)));
    latest.current.onLinked?.();
  }, [search]);
  return [filters, setFilters];
}
