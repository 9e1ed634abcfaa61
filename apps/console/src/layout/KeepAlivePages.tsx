import { Activity, Suspense, useState } from 'react';
import { PageLoading } from '../app/PageLoading.tsx';
import NotFoundPage from '../not-found/NotFoundPage.tsx';
import { pages } from '../router/pages.ts';
import { PageErrorBoundary } from './PageErrorBoundary.tsx';
import { useTabBar } from './tab-bar.store.ts';

/** A page of the registry; a route without one shows not-found instead of breaking the console. */
function PageHost({ name }: { name: string }) {
  const Page = pages[name];
  if (!Page) return <NotFoundPage embedded />;
  return (
    <PageErrorBoundary>
      <Suspense fallback={<PageLoading fullPage={false} />}>
        <Page />
      </Suspense>
    </PageErrorBoundary>
  );
}

/** Pages alive after this render: cached ones that were opened, plus the one on screen. */
function nextAlive(alive: string[], cached: string[], current: string | undefined): string[] {
  const next = alive.filter((name) => cached.includes(name) || name === current);
  if (current && !next.includes(current)) next.push(current);
  return next.length === alive.length && next.every((name, i) => name === alive[i]) ? alive : next;
}

/**
 * The tab bar's cache list at work: a page in it stays mounted but hidden (React Activity) while
 * another tab is on screen, so its form input, filters and scroll survive a tab switch. Closing or
 * reloading its tab takes it out of the cache and unmounts it.
 */
export function KeepAlivePages({ current }: { current: string | undefined }) {
  const cached = useTabBar((s) => s.cacheTabList);
  const [alive, setAlive] = useState<string[]>(current ? [current] : []);
  const next = nextAlive(alive, cached, current);
  if (next !== alive) setAlive(next);
  return next.map((name) => (
    <Activity key={name} mode={name === current ? 'visible' : 'hidden'}>
      <PageHost name={name} />
    </Activity>
  ));
}
