import { keepPreviousData } from '@tanstack/react-query';
import { devicesApi, taskApi, taskStatisticsApi, type RunFilter, type RunListQuery, type ScheduleListQuery, type TaskControlAction, type TaskFaultQuery } from '@mowerline/contract';
import { call, saveBlob, useEndpoint, useEndpointMutation, type Invalidation } from '../api/endpoint-client.ts';
import { fileStamp, reportWindow, viewerTimeZone } from './labels.ts';

/** Runs move on while a page is open: the overview and the lists refresh themselves. */
const LIVE_MS = 30_000;

/** GET /api/admin/statistics/task-overview in the viewer's time zone. */
export const useTaskOverview = (days: number) => useEndpoint(taskStatisticsApi.overview, { query: { tz: viewerTimeZone(), days } }, { refetchInterval: LIVE_MS });

/** GET /api/admin/statistics/task-daily-report over the spec's window (start of the day 30 days ago … 23:59:59 today). */
export function useTaskDailyReport() {
  const window = reportWindow(new Date());
  return useEndpoint(taskStatisticsApi.dailyReport, { query: { ...window, tz: viewerTimeZone() } }, { refetchInterval: LIVE_MS });
}

/** GET /api/admin/task/schedule: one page. */
export const useSchedules = (query: Partial<ScheduleListQuery>) => useEndpoint(taskApi.listSchedules, { query }, { placeholderData: keepPreviousData, refetchInterval: LIVE_MS });

/** A mower's zones with their "last mowed" (the schedule editor and the run drawer). */
export const useZones = (sn: string | undefined) => useEndpoint(taskApi.zones, { params: { sn: sn ?? '' } }, { enabled: !!sn, retry: false });

/** Any schedule change: the schedule list and the zones' schedules. */
const invalidates: Invalidation[] = [taskApi.listSchedules, taskApi.getSchedule];
const byId = (id: number) => ({ params: { id } });
export const useEnableSchedule = () => useEndpointMutation(taskApi.enableSchedule, { toInput: byId, invalidates });
export const useDisableSchedule = () => useEndpointMutation(taskApi.disableSchedule, { toInput: byId, invalidates });
export const useResendSchedule = () => useEndpointMutation(taskApi.resendSchedule, { toInput: byId, invalidates });
/** Create and edit show the server's refusal in the form itself, not as a toast. */
export const useCreateSchedule = () => useEndpointMutation(taskApi.createSchedule, { invalidates, options: { silent: true } });
export const useUpdateSchedule = () => useEndpointMutation(taskApi.updateSchedule, { invalidates, options: { silent: true } });

/** A command changes the run and the mower: its detail, the run list and details, and the overview. */
const afterCommand: Invalidation[] = [devicesApi.detail, taskApi.listRuns, taskApi.runDetail, taskStatisticsApi.overview];
/** POST /api/admin/task/device/:sn/start: mow now (trigger `console`); no zones = the whole garden. */
export const useStartTask = () =>
  useEndpointMutation(taskApi.start, {
    toInput: ({ sn, zones, durationMin }: { sn: string; zones: string[]; durationMin?: number }) => ({ params: { sn }, body: { zones, ...(durationMin ? { durationMin } : {}) } }),
    invalidates: afterCommand,
  });
/** POST /api/admin/task/device/:sn/control: pause, resume, return home or cancel the current run. */
export const useControlTask = () =>
  useEndpointMutation(taskApi.control, {
    toInput: ({ sn, action }: { sn: string; action: TaskControlAction }) => ({ params: { sn }, body: { action } }),
    invalidates: afterCommand,
  });

/** GET /api/admin/task/run: one page, newest first (`cursor` continues after the previous page). */
export const useRuns = (query: Partial<RunListQuery>) => useEndpoint(taskApi.listRuns, { query }, { placeholderData: keepPreviousData, refetchInterval: LIVE_MS });

/** GET /api/admin/task/run/:id: path, timeline, resumption and the garden. */
export const useRunDetail = (id: number | undefined) => useEndpoint(taskApi.runDetail, { params: { id: id ?? 0 } }, { enabled: id !== undefined, refetchInterval: 10_000 });

/** GET /api/admin/task/fault: runs ended by a fault, grouped by code, with the daily trend. */
export const useTaskFaults = (query: Partial<TaskFaultQuery>) =>
  useEndpoint(taskApi.faults, { query: { ...query, tz: viewerTimeZone() } }, { placeholderData: keepPreviousData, refetchInterval: LIVE_MS });

/** The filtered run list as CSV, saved as a file. */
export async function downloadRuns(filter: Partial<RunFilter>): Promise<void> {
  saveBlob(await call(taskApi.exportRuns, { query: filter }), `task-runs-${fileStamp(new Date())}.csv`);
}
