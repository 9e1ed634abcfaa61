import { keepPreviousData } from '@tanstack/react-query';
import { contentApi, dashboardStatisticsApi, statisticsApi, type ContentType } from '@mowerline/contract';
import { useEndpoint } from '../api/endpoint-client.ts';

/**
 * The workplace refreshes itself: every widget polls (TanStack pauses while the tab is hidden),
 * so the numbers move with the fleet and the app users without a reload.
 */
export const WORKPLACE_REFRESH_MS = 30_000;
const live = { refetchInterval: WORKPLACE_REFRESH_MS } as const;

/** GET /api/admin/statistics/online: now, and the last 24 hours in 48 points for the sparkline. */
export const useOnlineSeries = () => useEndpoint(statisticsApi.online, { query: { points: 48 } }, live);

/** GET /api/admin/statistics/notify: what needs me, role-aware. */
export const useNotify = () => useEndpoint(dashboardStatisticsApi.notify, {}, live);

/** GET /api/admin/statistics/active-app-users */
export const useActiveAppUsers = () => useEndpoint(dashboardStatisticsApi.activeAppUsers, {}, live);

/** GET /api/admin/content/popular: top 5 of a type this week. */
export const usePopularContent = (type: ContentType) => useEndpoint(contentApi.popular, { query: { type } }, { ...live, placeholderData: keepPreviousData });

/** GET /api/admin/content/data: opens per day. */
export const useContentData = (days: 8 | 30 | 90) => useEndpoint(contentApi.data, { query: { days } }, { ...live, placeholderData: keepPreviousData });
