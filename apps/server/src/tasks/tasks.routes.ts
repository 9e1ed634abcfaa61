import type { FastifyInstance, FastifyRequest } from 'fastify';
import { appTaskApi, taskApi, taskCommands, taskStatisticsApi, type TaskControlAction } from '@mowerline/contract';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { devices } from '../devices/devices.sql.ts';
import { appUser } from '../end-users/app-session.ts';
import { requireLink } from '../end-users/binding.service.ts';
import { trackUserAction, type UserLogEntry } from '../end-users/user-log.service.ts';
import { commandFailure } from '../gateway/commands.ts';
import { serve } from '../http/endpoints.ts';
import { AppError } from '../http/envelope.ts';
import { deviceZones, exportRuns, listRuns, recentRuns, runDetail, taskFaults } from './runs.service.ts';
import { createSchedule, deleteSchedule, deviceSchedules, getSchedule, listSchedules, setScheduleEnabled, updateSchedule, type Editor } from './schedules.service.ts';
import { taskDailyReport, taskOverview } from './statistics.service.ts';
import type { TaskEngine } from './task-engine.ts';

const COMMAND_TIMEOUT_MS = 10_000;
const controlCommand: Record<TaskControlAction, string> = {
  pause: taskCommands.pause,
  resume: taskCommands.resume,
  return_home: taskCommands.returnHome,
  cancel: taskCommands.cancel,
};


/**
 * Mowing tasks: schedules (staff and app), runs, zones, task faults and the `task-*` statistics.
 * The engine consumes the mowers' run, zone and ack reports and keeps schedules in sync.
 */
export function taskRoutes(app: FastifyInstance, ctx: AppContext, engine: TaskEngine) {
  const staffEditor = (request: FastifyRequest): Editor => ({ kind: 'staff', name: request.principal?.username ?? '' });
  const appEditor = (request: FastifyRequest): Editor => ({ kind: 'app', name: appUser(request).email });
  const resend = (sn: string) => {
    void engine.send(sn);
  };

  async function command(sn: string, name: string, args: Record<string, unknown>) {
    try {
      const result = (await ctx.gateway.sendCommand(sn, name, args, COMMAND_TIMEOUT_MS)) as { runId?: unknown } | null;
      return { ok: true as const, runId: typeof result?.runId === 'string' ? result.runId : null };
    } catch (err) {
      throw commandFailure(err, 'TASK_COMMAND_REFUSED');
    }
  }
  async function requireDevice(sn: string) {
    const [device] = await ctx.db.select({ sn: devices.sn }).from(devices).where(eq(devices.sn, sn));
    if (!device) throw new AppError('SN_NOT_FOUND', { sn });
  }
  async function requireZones(sn: string, zones: string[]) {
    if (zones.length === 0) return;
    const known = new Set((await deviceZones(ctx.db, sn, false)).zones.map((z) => z.id));
    const unknown = zones.find((z) => !known.has(z));
    if (unknown !== undefined) throw new AppError('TASK_ZONE_UNKNOWN', { sn, zone: unknown });
  }

  serve(app, ctx, taskApi, {
    listSchedules: ({ query }) => listSchedules(ctx.db, query),
    getSchedule: ({ params }) => getSchedule(ctx.db, params.id),
    createSchedule: async ({ body, request, audit }) => {
      const { sn, ...rest } = body;
      audit({ targetType: 'device', targetId: sn, detail: { name: rest.name } });
      const created = await createSchedule(ctx.db, sn, rest, staffEditor(request));
      audit({ targetType: 'schedule', targetId: created.id, targetName: created.name, detail: { sn, configRevision: created.configRevision } });
      resend(sn);
      return created;
    },
    updateSchedule: async ({ params, body, request, audit }) => {
      audit({ targetType: 'schedule', targetId: params.id });
      const { revision, ...rest } = body;
      const { before, after } = await updateSchedule(ctx.db, params.id, { ...rest, revision }, staffEditor(request));
      audit({ targetType: 'schedule', targetId: params.id, targetName: after.name, detail: { sn: after.sn, before: { name: before.name, enabled: before.enabled, slots: before.slots, zones: before.zones, cutting: before.cutting }, configRevision: after.configRevision } });
      resend(after.sn);
      return after;
    },
    deleteSchedule: async ({ params, audit }) => {
      audit({ targetType: 'schedule', targetId: params.id });
      const before = await deleteSchedule(ctx.db, params.id);
      audit({ targetType: 'schedule', targetId: params.id, targetName: before.name, detail: { sn: before.sn } });
      resend(before.sn);
      return null;
    },
    enableSchedule: async ({ params, request, audit }) => {
      audit({ targetType: 'schedule', targetId: params.id });
      const after = await setScheduleEnabled(ctx.db, params.id, true, staffEditor(request));
      audit({ targetType: 'schedule', targetId: params.id, targetName: after.name, detail: { sn: after.sn } });
      resend(after.sn);
      return after;
    },
    disableSchedule: async ({ params, request, audit }) => {
      audit({ targetType: 'schedule', targetId: params.id });
      const after = await setScheduleEnabled(ctx.db, params.id, false, staffEditor(request));
      audit({ targetType: 'schedule', targetId: params.id, targetName: after.name, detail: { sn: after.sn } });
      resend(after.sn);
      return after;
    },
    resendSchedule: async ({ params, audit }) => {
      const schedule = await getSchedule(ctx.db, params.id);
      audit({ targetType: 'schedule', targetId: params.id, targetName: schedule.name, detail: { sn: schedule.sn } });
      await engine.send(schedule.sn);
      return getSchedule(ctx.db, params.id);
    },
    listRuns: ({ query }) => listRuns(ctx.db, query),
    exportRuns: async ({ query, reply, audit }) => {
      audit({ targetType: 'task-run', detail: { filter: query } });
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="task-runs-${new Date().toISOString().slice(0, 19).replace(/[-:T]/g, '')}.csv"`)
        .send(exportRuns(ctx.db, query));
    },
    runDetail: ({ params }) => runDetail(ctx.db, params.id),
    zones: ({ params }) => deviceZones(ctx.db, params.sn),
    faults: ({ query }) => taskFaults(ctx.db, query),
    start: async ({ params, body, audit }) => {
      audit({ targetType: 'device', targetId: params.sn, detail: { command: taskCommands.start, zones: body.zones, durationMin: body.durationMin } });
      await requireDevice(params.sn);
      await requireZones(params.sn, body.zones);
      return command(params.sn, taskCommands.start, { zones: body.zones, trigger: 'console', ...(body.durationMin ? { durationMin: body.durationMin } : {}) });
    },
    control: async ({ params, body, audit }) => {
      audit({ targetType: 'device', targetId: params.sn, detail: { command: controlCommand[body.action] } });
      await requireDevice(params.sn);
      return command(params.sn, controlCommand[body.action], {});
    },
  });

  serve(app, ctx, taskStatisticsApi, {
    overview: ({ query }) => taskOverview(ctx.db, query),
    dailyReport: ({ query }) => taskDailyReport(ctx.db, query),
  });

  const track = <T>(request: FastifyRequest, entry: Omit<UserLogEntry, 'result'>, work: () => Promise<T>) => trackUserAction(ctx, request, entry, work);
  const link = (request: FastifyRequest, sn: string) => requireLink(ctx.db, appUser(request).id, sn);

  serve(app, ctx, appTaskApi, {
    listSchedules: async ({ params, request }) => {
      await link(request, params.sn);
      return deviceSchedules(ctx.db, params.sn);
    },
    createSchedule: ({ params, body, request }) =>
      track(request, { action: 'schedule.create', sn: params.sn, detail: { name: body.name } }, async () => {
        await link(request, params.sn);
        const created = await createSchedule(ctx.db, params.sn, body, appEditor(request));
        resend(params.sn);
        return created;
      }),
    updateSchedule: ({ params, body, request }) =>
      track(request, { action: 'schedule.update', sn: params.sn, detail: { id: params.id, name: body.name, enabled: body.enabled } }, async () => {
        await link(request, params.sn);
        const { after } = await updateSchedule(ctx.db, params.id, body, appEditor(request), params.sn);
        resend(params.sn);
        return after;
      }),
    deleteSchedule: ({ params, request }) =>
      track(request, { action: 'schedule.delete', sn: params.sn, detail: { id: params.id } }, async () => {
        await link(request, params.sn);
        await deleteSchedule(ctx.db, params.id, params.sn);
        resend(params.sn);
        return null;
      }),
    zones: async ({ params, request }) => {
      await link(request, params.sn);
      return deviceZones(ctx.db, params.sn, false);
    },
    runs: async ({ params, query, request }) => {
      await link(request, params.sn);
      return recentRuns(ctx.db, params.sn, query.limit);
    },
    start: ({ params, body, request }) =>
      track(request, { action: 'task.command', sn: params.sn, detail: { command: taskCommands.start, zones: body.zones } }, async () => {
        await link(request, params.sn);
        await requireZones(params.sn, body.zones);
        return command(params.sn, taskCommands.start, { zones: body.zones, trigger: 'app', ...(body.durationMin ? { durationMin: body.durationMin } : {}) });
      }),
    control: ({ params, body, request }) =>
      track(request, { action: 'task.command', sn: params.sn, detail: { command: controlCommand[body.action] } }, async () => {
        await link(request, params.sn);
        return command(params.sn, controlCommand[body.action], {});
      }),
  });
}
