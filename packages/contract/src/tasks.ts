import { z } from 'zod';
import { eventSeverities, type EventSeverity } from './device-protocol.ts';
import { isoTimeQuery, pageQuerySchema, pageSchema, queryBoolean } from './envelope.ts';
import type { Localized } from './locale.ts';
import { cuttingPatterns, runResults, runTriggers, scheduleSlotSchema, zoneIdSchema } from './task-protocol.ts';
import { timeZoneSchema } from './time-zone.ts';

/**
 * Mowing tasks: zones of a mower's garden, schedules (device configuration with a
 * revision), task runs reported by the mower, their statistics and the task-fault catalogue.
 * The MQTT side is in task-protocol.ts; the endpoints in endpoints/tasks.ts.
 */

// ---------------------------------------------------------------- zones

/** A zone as the platform shows it, with when it was last mowed (maintained on run ingest). */
export const zoneSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The boundary, closed implicitly (last point joins the first). */
  polygon: z.array(z.object({ lat: z.number(), lng: z.number() })),
  areaM2: z.number(),
  /** End of the latest run that covered the zone and completed, else null. */
  lastMowedAt: z.string().nullable(),
  /** The latest run that covered the zone (any result), its id and result. */
  lastRunId: z.number().int().nullable(),
  lastRunResult: z.string().nullable(),
  lastRunAt: z.string().nullable(),
});
export type Zone = z.infer<typeof zoneSchema>;
/** GET /api/admin/task/zones/:sn and /api/app/v1/devices/:sn/zones */
export const deviceZonesSchema = z.object({ sn: z.string(), reportedAt: z.string().nullable(), zones: z.array(zoneSchema) });
export type DeviceZones = z.infer<typeof deviceZonesSchema>;

// ---------------------------------------------------------------- schedules


export const cuttingSettingsSchema = z
  .object({
    /** Cutting height, mm. */
    heightMm: z.number().int().min(20).max(100),
    pattern: z.enum(cuttingPatterns),
    /** Mow along the boundary first. */
    edgeCut: z.boolean(),
  })
  .strict();
export type CuttingSettings = z.infer<typeof cuttingSettingsSchema>;

export const MAX_SCHEDULES_PER_DEVICE = 10;
export const MAX_SLOTS_PER_SCHEDULE = 28;

/** The editable part of a schedule (app and console). Overlaps and zones are checked by the server. */
export const scheduleBodySchema = z
  .object({
    name: z.string().trim().min(1).max(64),
    enabled: z.boolean().default(true),
    slots: z.array(scheduleSlotSchema).min(1).max(MAX_SLOTS_PER_SCHEDULE),
    /** Zones to mow, by id; empty = the whole garden. */
    zones: z.array(zoneIdSchema).max(32).default([]),
    cutting: cuttingSettingsSchema,
  })
  .strict();
export type ScheduleBody = z.infer<typeof scheduleBodySchema>;
/** POST /api/admin/task/schedule */
export const adminScheduleCreateBodySchema = scheduleBodySchema.extend({ sn: z.string().trim().toUpperCase().regex(/^[A-Z0-9][A-Z0-9-]{2,30}[A-Z0-9]$/) }).strict();
/** PUT …/schedule/:id: `revision` is the one read; a stale one is refused (TASK_REVISION_CONFLICT). */
export const scheduleUpdateBodySchema = scheduleBodySchema.extend({ revision: z.number().int().min(1).max(2_147_483_647) }).strict();

export const syncStates = ['pending', 'applied', 'failed'] as const;
export type SyncState = (typeof syncStates)[number];

export const scheduleSchema = z.object({
  id: z.number().int(),
  sn: z.string(),
  modelCode: z.string(),
  /** The owner's e-mail ('' while the mower has no owner). */
  ownerEmail: z.string(),
  name: z.string(),
  enabled: z.boolean(),
  slots: z.array(z.object({ weekday: z.number().int(), start: z.string(), end: z.string() })),
  zones: z.array(z.string()),
  cutting: z.object({ heightMm: z.number().int(), pattern: z.enum(cuttingPatterns), edgeCut: z.boolean() }),
  /** Edit count of this schedule, starts at 1; an update names the revision it read. */
  revision: z.number().int(),
  /** The mower's configuration revision that carries this schedule's latest change. */
  configRevision: z.number().int(),
  /** Whether the mower acknowledged that configuration revision (or a later one). */
  syncState: z.enum(syncStates),
  syncError: z.string().nullable(),
  /** When the configuration was last sent, and when the mower applied it. */
  sentAt: z.string().nullable(),
  appliedAt: z.string().nullable(),
  updatedBy: z.object({ kind: z.enum(['staff', 'app']), name: z.string() }),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Schedule = z.infer<typeof scheduleSchema>;

/** GET /api/admin/task/schedule */
export const scheduleListQuerySchema = pageQuerySchema
  .extend({
    sn: z.string().trim().toUpperCase().max(32).optional(),
    /** Prefix of the owner's e-mail. */
    owner: z.string().trim().max(254).optional(),
    model: z.string().trim().max(64).optional(),
    enabled: queryBoolean.optional(),
    syncState: z.enum(syncStates).optional(),
  })
  .strict();
export type ScheduleListQuery = z.infer<typeof scheduleListQuerySchema>;
export const schedulePageSchema = pageSchema(scheduleSchema);
export const scheduleParamsSchema = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) }).strict();
export const appScheduleParamsSchema = z
  .object({ sn: z.string().trim().toUpperCase().regex(/^[A-Z0-9][A-Z0-9-]{2,30}[A-Z0-9]$/), id: z.coerce.number().int().min(1).max(2_147_483_647) })
  .strict();

// ---------------------------------------------------------------- commands

export const taskControlActions = ['pause', 'resume', 'return_home', 'cancel'] as const;
export type TaskControlAction = (typeof taskControlActions)[number];
/** Start a run now: zones (empty = whole garden) and an optional time limit. */
export const taskStartBodySchema = z
  .object({ zones: z.array(zoneIdSchema).max(32).default([]), durationMin: z.number().int().min(1).max(24 * 60).optional() })
  .strict();
export const taskControlBodySchema = z.object({ action: z.enum(taskControlActions) }).strict();
export const taskCommandResultSchema = z.object({ ok: z.literal(true), runId: z.string().nullable() });

// ---------------------------------------------------------------- runs

export const runStatuses = ['running', 'paused', 'ended'] as const;
export type RunStatus = (typeof runStatuses)[number];
export const runEventTypes = ['started', 'progress', 'paused', 'resumed', 'ended'] as const;
export type RunEventType = (typeof runEventTypes)[number];

export const taskRunSchema = z.object({
  id: z.number().int(),
  sn: z.string(),
  /** The mower's own id of the run. */
  runId: z.string(),
  modelCode: z.string(),
  firmware: z.string(),
  ownerEmail: z.string(),
  trigger: z.enum(runTriggers).nullable(),
  scheduleId: z.number().int().nullable(),
  scheduleName: z.string().nullable(),
  status: z.enum(runStatuses),
  result: z.enum(runResults).nullable(),
  faultCode: z.string().nullable(),
  zones: z.array(z.string()),
  plannedAreaM2: z.number().nullable(),
  progressPercent: z.number(),
  areaM2: z.number(),
  durationS: z.number().int(),
  bladeOnS: z.number().int(),
  distanceM: z.number(),
  pauses: z.number().int(),
  /** The run this one resumed (platform id), when it is a resumption. */
  resumesId: z.number().int().nullable(),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  lastReportAt: z.string(),
});
export type TaskRun = z.infer<typeof taskRunSchema>;

export const runEventSchema = z.object({
  seq: z.number().int(),
  type: z.enum(runEventTypes),
  at: z.string(),
  detail: z.record(z.string(), z.unknown()),
});
export type RunEvent = z.infer<typeof runEventSchema>;

/** GET /api/admin/task/run/:id */
export const taskRunDetailSchema = taskRunSchema.extend({
  /** Google encoded polyline, precision 6 (decodePolyline). '' until the run ended. */
  path: z.string(),
  /** The timeline, in sequence order. */
  events: z.array(runEventSchema),
  resumes: taskRunSchema.nullable(),
  resumedBy: taskRunSchema.nullable(),
  /** The garden's zones as the mower last reported them. */
  zonesDetail: z.array(zoneSchema),
});
export type TaskRunDetail = z.infer<typeof taskRunDetailSchema>;

export const runFilterSchema = z.object({
  sn: z.string().trim().toUpperCase().max(32).optional(),
  /** Prefix of the owner's e-mail. */
  owner: z.string().trim().max(254).optional(),
  model: z.string().trim().max(64).optional(),
  trigger: z.enum(runTriggers).optional(),
  result: z.enum(runResults).optional(),
  status: z.enum(runStatuses).optional(),
  faultCode: z.string().trim().toUpperCase().max(48).optional(),
  scheduleId: z.coerce.number().int().min(1).max(2_147_483_647).optional(),
  /** Start time range. */
  from: isoTimeQuery,
  to: isoTimeQuery,
});
export type RunFilter = z.infer<typeof runFilterSchema>;
/** GET /api/admin/task/run: newest first; `cursor` (the previous page's `nextCursor`) stays fast at any depth. */
export const runListQuerySchema = runFilterSchema.extend(pageQuerySchema.shape).extend({ cursor: z.string().max(128).optional() }).strict();
export type RunListQuery = z.infer<typeof runListQuerySchema>;
export const runExportQuerySchema = runFilterSchema.strict();
export const runPageSchema = z.object({ list: z.array(taskRunSchema), total: z.number().int().min(0), totalExact: z.boolean(), nextCursor: z.string().nullable() });
export type RunPage = z.infer<typeof runPageSchema>;
export const runParamsSchema = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) }).strict();
/** GET /api/app/v1/devices/:sn/runs: the latest runs of an own or shared mower. */
export const appRunListQuerySchema = z.object({ limit: z.coerce.number().int().min(1).max(100).default(20) }).strict();

// ---------------------------------------------------------------- statistics

/** The daily report's window as the console sends it (spec): 30 days back to today. */
export const TASK_REPORT_DAYS = 30;
/** The longest window the daily report answers. */
export const MAX_TASK_REPORT_DAYS = 400;

/**
 * GET /api/admin/statistics/task-daily-report?start_time=&end_time=&tz= — Unix seconds (spec) and
 * the viewer's IANA zone: one entry per local day from start_time's day to end_time's day.
 */
export const taskDailyReportQuerySchema = z
  .object({
    start_time: z.coerce.number().int().min(0).max(4_102_444_800),
    end_time: z.coerce.number().int().min(0).max(4_102_444_800),
    tz: timeZoneSchema.default('UTC'),
  })
  .strict();
export type TaskDailyReportQuery = z.infer<typeof taskDailyReportQuerySchema>;
/**
 * A day's runs by their start time: `runs` started, of them `completed`, `interrupted` (ended
 * interrupted or failed), `faults` (ended by a fault code); `area` m² mowed and `hours` mowing
 * time (pauses excluded) of the runs that ended.
 */
export const taskDayStatsSchema = z.object({
  date: z.string(),
  runs: z.number().int(),
  completed: z.number().int(),
  interrupted: z.number().int(),
  faults: z.number().int(),
  area: z.number(),
  hours: z.number(),
});
export type TaskDayStats = z.infer<typeof taskDayStatsSchema>;
export const taskDailyReportSchema = z.object({ list: z.array(taskDayStatsSchema) });
export type TaskDailyReport = z.infer<typeof taskDailyReportSchema>;

/** GET /api/admin/statistics/task-overview: today (viewer's day) and the last `days` days. */
export const taskOverviewQuerySchema = z.object({ tz: timeZoneSchema.default('UTC'), days: z.coerce.number().int().min(1).max(90).default(TASK_REPORT_DAYS) }).strict();
export const taskStatsSchema = z.object({
  runs: z.number().int(),
  ended: z.number().int(),
  completed: z.number().int(),
  interrupted: z.number().int(),
  userEnded: z.number().int(),
  faults: z.number().int(),
  area: z.number(),
  hours: z.number(),
  /** completed / ended, 0..1 (0 without ended runs). */
  completionRate: z.number(),
  /** interrupted / ended, 0..1. */
  interruptionRate: z.number(),
  /** faults per 100 ended runs. */
  faultsPer100Runs: z.number(),
});
export type TaskStats = z.infer<typeof taskStatsSchema>;
export const taskOverviewSchema = z.object({
  tz: z.string(),
  days: z.number().int(),
  /** Runs in progress now (running or paused, reported within the last 6 hours). */
  runningNow: z.number().int(),
  pausedNow: z.number().int(),
  today: taskStatsSchema,
  window: taskStatsSchema,
  byModel: z.array(taskStatsSchema.extend({ model: z.string() })),
  byFirmware: z.array(taskStatsSchema.extend({ firmware: z.string() })),
});
export type TaskOverview = z.infer<typeof taskOverviewSchema>;

// ---------------------------------------------------------------- task faults

/** GET /api/admin/task/fault: runs ended by a fault, grouped by code. */
export const taskFaultQuerySchema = z
  .object({ from: isoTimeQuery, to: isoTimeQuery, model: z.string().trim().max(64).optional(), firmware: z.string().trim().max(32).optional(), tz: timeZoneSchema.default('UTC') })
  .strict();
export type TaskFaultQuery = z.infer<typeof taskFaultQuerySchema>;
export const taskFaultGroupSchema = z.object({
  code: z.string(),
  /** From the catalogue; a code it does not know is `unknown` (shown as "unknown code X"). */
  known: z.boolean(),
  severity: z.enum([...eventSeverities, 'unknown']),
  count: z.number().int(),
  devices: z.number().int(),
  byModel: z.array(z.object({ model: z.string(), count: z.number().int() })),
  byFirmware: z.array(z.object({ firmware: z.string(), count: z.number().int() })),
  lastAt: z.string(),
  /** The latest such run, for the links to the device, its events and the run. */
  lastRunId: z.number().int(),
  lastSn: z.string(),
});
export const taskFaultReportSchema = z.object({
  from: z.string(),
  to: z.string(),
  total: z.number().int(),
  list: z.array(taskFaultGroupSchema),
  /** Per local day: faults by code. */
  trend: z.array(z.object({ date: z.string(), total: z.number().int(), byCode: z.record(z.string(), z.number().int()) })),
});
export type TaskFaultReport = z.infer<typeof taskFaultReportSchema>;

/**
 * The task-fault catalogue, versioned: codes a mower ends a run with, their severity, and title
 * and fix text in both languages. A code not listed is shown as "unknown code X", never hidden.
 */
export const TASK_FAULT_CATALOGUE_VERSION = 1;
export interface TaskFaultDef {
  severity: EventSeverity;
  title: Localized;
  fix: Localized;
}
const fault = (severity: EventSeverity, zhTitle: string, enTitle: string, zhFix: string, enFix: string): TaskFaultDef => ({
  severity,
  title: { 'zh-CN': zhTitle, 'en-US': enTitle },
  fix: { 'zh-CN': zhFix, 'en-US': enFix },
});
export const taskFaultCatalogue: Record<string, TaskFaultDef> = {
  UPSIDE_DOWN: fault('critical', '割草机翻倒', 'Mower upside down', '关闭电源后将割草机翻正，检查刀盘与外壳是否损坏，再按 OK 恢复。', 'Switch the mower off, turn it upright, check blades and body for damage, then press OK to resume.'),
  BATTERY_OVERHEAT: fault('critical', '电池温度过高', 'Battery overheating', '让割草机在阴凉处冷却 30 分钟；若反复出现，请联系售后检测电池。', 'Let the mower cool down in the shade for 30 minutes; if it recurs, have the battery checked by service.'),
  LIFTED: fault('major', '割草机被抬起', 'Mower lifted', '确认割草机四轮着地、无障碍物顶起机身，然后按 OK 恢复。', 'Make sure all wheels are on the ground and nothing lifts the body, then press OK to resume.'),
  BLADE_BLOCKED: fault('major', '刀盘被卡住', 'Blade blocked', '关闭电源，戴手套清除刀盘下的树枝、石块或缠绕物。', 'Switch off, wear gloves and remove branches, stones or anything wound around the blade disc.'),
  WHEEL_MOTOR_OVERLOAD: fault('major', '驱动轮电机过载', 'Wheel motor overloaded', '清理驱动轮上的泥土和草屑，检查是否陷入坑洼或坡度过大。', 'Clean mud and grass from the wheels; check for holes or slopes steeper than the mower allows.'),
  STUCK: fault('major', '割草机被困', 'Mower stuck', '将割草机移到开阔草地，排除障碍；在地图中为该处设置禁区。', 'Move the mower to open lawn and clear the obstacle; add a no-go zone for that spot in the map.'),
  OUTSIDE_WORKING_AREA: fault('minor', '超出工作区域', 'Outside the working area', '将割草机放回地图范围内；若边界有变化，请重新建图。', 'Put the mower back inside the mapped area; re-map the boundary if it has changed.'),
  GNSS_FIX_LOST: fault('minor', '定位信号丢失', 'Positioning (RTK) fix lost', '检查 RTK 基站供电与天线视野；避免在高楼或浓密树冠下作业。', 'Check the RTK station power and sky view; avoid mowing under tall buildings or dense canopy.'),
  COLLISION_SENSOR: fault('minor', '碰撞传感器故障', 'Collision sensor fault', '检查前罩能否自由活动，清除卡在罩壳间的杂物。', 'Check that the front cover moves freely and remove debris caught between the covers.'),
  CHARGING_STATION_BLOCKED: fault('minor', '充电站被阻挡', 'Charging station blocked', '清除充电站前方的障碍物，确认充电触点干净。', 'Clear the area in front of the charging station and clean the charging contacts.'),
  LOW_BATTERY: fault('warning', '电量过低未能返回', 'Battery too low to return', '将割草机放回充电站充电，检查回充路径是否畅通。', 'Put the mower on its charging station and check that the way home is clear.'),
  RAIN_DELAY: fault('warning', '雨天停止作业', 'Stopped for rain', '无需处理，雨停后按计划继续；可在设置中调整雨水延迟。', 'Nothing to do: mowing continues as planned after the rain; the rain delay can be set in the app.'),
  ZONE_UNREACHABLE: fault('minor', '无法到达作业区域', 'Zone unreachable', '检查通往该区域的通道是否被阻挡，或在地图中重新连接区域。', 'Check that the passage to the zone is clear, or reconnect the zone in the map.'),
  MAP_INVALID: fault('major', '地图数据无效', 'Map invalid', '在应用中重新建图，并确认固件为最新版本。', 'Map the garden again in the app and make sure the firmware is up to date.'),
};
/** Title and fix of a code in a language; an unknown code reads "unknown code X". */
export function taskFaultText(code: string, locale: 'zh-CN' | 'en-US'): { known: boolean; severity: EventSeverity | 'unknown'; title: string; fix: string } {
  const def = taskFaultCatalogue[code];
  if (!def) return { known: false, severity: 'unknown', title: locale === 'zh-CN' ? `未知故障码 ${code}` : `unknown code ${code}`, fix: '' };
  return { known: true, severity: def.severity, title: def.title[locale], fix: def.fix[locale] };
}
