import { sql } from 'drizzle-orm';
import { bigint, boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, real, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { runResults, runStatuses, runTriggers, syncStates, type CuttingSettings, type ScheduleSlot } from '@mowerline/contract';
import { devices, snText } from '../devices/devices.sql.ts';

/** The zones a mower last reported, with when each was last mowed (kept by run ingest). */
export const taskZones = pgTable(
  'task_zones',
  {
    sn: snText('sn')
      .notNull()
      .references(() => devices.sn, { onDelete: 'cascade' }),
    zoneId: text('zone_id').notNull(),
    name: text('name').notNull(),
    polygon: jsonb('polygon').$type<Array<{ lat: number; lng: number }>>().notNull(),
    areaM2: real('area_m2').notNull(),
    reportedAt: timestamp('reported_at', { withTimezone: true }).notNull(),
    lastMowedAt: timestamp('last_mowed_at', { withTimezone: true }),
    lastRunId: integer('last_run_id'),
    lastRunResult: text('last_run_result'),
    lastRunAt: timestamp('last_run_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.sn, t.zoneId] })],
);

/** A mower's schedules. Together they are its schedule configuration (task_device_sync.revision). */
export const taskSchedules = pgTable(
  'task_schedules',
  {
    id: serial('id').primaryKey(),
    sn: snText('sn')
      .notNull()
      .references(() => devices.sn, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    slots: jsonb('slots').$type<ScheduleSlot[]>().notNull(),
    zones: jsonb('zones').$type<string[]>().notNull(),
    cutting: jsonb('cutting').$type<CuttingSettings>().notNull(),
    /** Edit count of this schedule (optimistic concurrency). */
    revision: integer('revision').notNull().default(1),
    /** The device configuration revision that carries this schedule's latest change. */
    configRevision: integer('config_revision').notNull(),
    updatedByKind: text('updated_by_kind', { enum: ['staff', 'app'] }).notNull(),
    updatedByName: text('updated_by_name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('task_schedules_sn').on(t.sn, t.id)],
);
export type TaskScheduleRow = typeof taskSchedules.$inferSelect;

/**
 * Per mower: the schedule configuration's revision and what the mower acknowledged. `state` is the
 * state of `revision`: pending until the ack, applied, or failed (the mower refused it).
 */
export const taskDeviceSync = pgTable(
  'task_device_sync',
  {
    sn: snText('sn')
      .primaryKey()
      .references(() => devices.sn, { onDelete: 'cascade' }),
    revision: integer('revision').notNull().default(0),
    appliedRevision: integer('applied_revision').notNull().default(0),
    state: text('state', { enum: syncStates }).notNull().default('pending'),
    error: text('error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    appliedAt: timestamp('applied_at', { withTimezone: true }),
  },
  (t) => [index('task_device_sync_unapplied').on(t.sentAt).where(sql`${t.state} = 'pending'`)],
);

/**
 * One mowing job as the mower reported it, keyed by (sn, run_id). `last_seq` is the highest report
 * sequence applied to the run's state: an older report only adds to the timeline.
 */
export const taskRuns = pgTable(
  'task_runs',
  {
    id: serial('id').primaryKey(),
    sn: snText('sn').notNull(),
    runId: text('run_id').notNull(),
    modelCode: text('model_code').notNull(),
    firmware: text('firmware').notNull(),
    /** The owner's e-mail when the run was first reported (lower case; '' without owner). */
    owner: text('owner').notNull().default(''),
    trigger: text('trigger', { enum: runTriggers }),
    scheduleId: integer('schedule_id'),
    scheduleName: text('schedule_name'),
    status: text('status', { enum: runStatuses }).notNull(),
    result: text('result', { enum: runResults }),
    faultCode: text('fault_code'),
    zones: jsonb('zones').$type<string[]>().notNull().default([]),
    plannedAreaM2: real('planned_area_m2'),
    progressPercent: real('progress_percent').notNull().default(0),
    areaM2: real('area_m2').notNull().default(0),
    durationS: integer('duration_s').notNull().default(0),
    bladeOnS: integer('blade_on_s').notNull().default(0),
    distanceM: real('distance_m').notNull().default(0),
    pauses: integer('pauses').notNull().default(0),
    resumesRunId: text('resumes_run_id'),
    resumesId: integer('resumes_id'),
    path: text('path').notNull().default(''),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    lastReportAt: timestamp('last_report_at', { withTimezone: true }).notNull(),
    lastSeq: integer('last_seq').notNull(),
  },
  (t) => [
    uniqueIndex('task_runs_sn_run').on(t.sn, t.runId),
    // Newest first, keyset on (started_at, id): the plain list and each filter's own index.
    index('task_runs_started').on(t.startedAt, t.id),
    index('task_runs_sn_started').on(t.sn, t.startedAt, t.id),
    index('task_runs_fault_started').on(t.faultCode, t.startedAt, t.id).where(sql`${t.faultCode} is not null`),
    index('task_runs_owner_started').on(t.owner, t.startedAt, t.id).where(sql`${t.owner} <> ''`),
    index('task_runs_open').on(t.lastReportAt).where(sql`${t.status} <> 'ended'`),
    index('task_runs_resumes').on(t.resumesId).where(sql`${t.resumesId} is not null`),
  ],
);
export type TaskRunRow = typeof taskRuns.$inferSelect;

/** A run's timeline: one row per (run, seq), so a redelivered report is recognised. */
export const taskRunEvents = pgTable(
  'task_run_events',
  {
    runPk: integer('run_pk')
      .notNull()
      .references(() => taskRuns.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    type: text('type').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [primaryKey({ columns: [t.runPk, t.seq] })],
);

/**
 * Task statistics kept on ingest: per 15-minute bucket of the runs' start time, model and firmware.
 * Every real time zone's offset is a multiple of 15 minutes, so any viewer's day is a whole range
 * of buckets (hours would not do for India or Nepal). Reads take whole hours and UTC days from
 * the coarser levels below, which a row trigger keeps from this table (migration 0008).
 */
export const taskRollups = pgTable(
  'task_rollups',
  {
    bucket: timestamp('bucket', { withTimezone: true }).notNull(),
    modelCode: text('model_code').notNull(),
    firmware: text('firmware').notNull(),
    runs: integer('runs').notNull().default(0),
    ended: integer('ended').notNull().default(0),
    completed: integer('completed').notNull().default(0),
    interrupted: integer('interrupted').notNull().default(0),
    userEnded: integer('user_ended').notNull().default(0),
    faults: integer('faults').notNull().default(0),
    areaM2: doublePrecision('area_m2').notNull().default(0),
    durationS: bigint('duration_s', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.modelCode, t.firmware] })],
);

/** The same sums per hour; kept from task_rollups by a row trigger (migration 0008). */
export const taskRollupsHourly = pgTable(
  'task_rollups_hourly',
  {
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    modelCode: text('model_code').notNull(),
    firmware: text('firmware').notNull(),
    runs: integer('runs').notNull().default(0),
    ended: integer('ended').notNull().default(0),
    completed: integer('completed').notNull().default(0),
    interrupted: integer('interrupted').notNull().default(0),
    userEnded: integer('user_ended').notNull().default(0),
    faults: integer('faults').notNull().default(0),
    areaM2: doublePrecision('area_m2').notNull().default(0),
    durationS: bigint('duration_s', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.hour, t.modelCode, t.firmware] })],
);

/**
 * The same sums per UTC day; kept from task_rollups by a row trigger (migration 0008). A range of
 * 15-minute buckets reads whole UTC days here, whole hours at its ends from the hourly table and
 * at most three quarters at each end from task_rollups: a 30-day overview reads ~80 rows per model
 * and firmware instead of 2,880.
 */
export const taskRollupsDaily = pgTable(
  'task_rollups_daily',
  {
    day: timestamp('day', { withTimezone: true }).notNull(),
    modelCode: text('model_code').notNull(),
    firmware: text('firmware').notNull(),
    runs: integer('runs').notNull().default(0),
    ended: integer('ended').notNull().default(0),
    completed: integer('completed').notNull().default(0),
    interrupted: integer('interrupted').notNull().default(0),
    userEnded: integer('user_ended').notNull().default(0),
    faults: integer('faults').notNull().default(0),
    areaM2: doublePrecision('area_m2').notNull().default(0),
    durationS: bigint('duration_s', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.modelCode, t.firmware] })],
);
