import { z } from 'zod';
import { deviceTextSchema, epochMsSchema, eventCodeSchema, PROTOCOL_VERSION } from './device-protocol.ts';

/**
 * The mowing-task part of the device protocol (docs/device-protocol.md, "Tasks"): the garden's
 * zones, schedules as device configuration, run reports and their encoded paths, and the
 * vocabulary both the device payloads and the task endpoints (tasks.ts) use. It builds on the
 * protocol's basics in device-protocol.ts and is imported by tasks.ts, so neither of those two
 * imports the other's values.
 */

// ---------------------------------------------------------------- zones and schedules

/** A zone id as the mower names it (`front`, `z1`). */
export const zoneIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, 'letters, digits, _ and -, at most 32');
export const geoPairSchema = z.object({ lat: z.number().min(-90).max(90), lng: z.number().min(-180).max(180) }).strict();

/** ISO weekday: 1 = Monday … 7 = Sunday, in the mower's time zone. */
export const weekdaySchema = z.number().int().min(1).max(7);
/** `HH:MM`, 00:00–24:00 (24:00 only as an end). */
export const clockTimeSchema = z.string().regex(/^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/, 'HH:MM between 00:00 and 24:00');
export function clockMinutes(time: string): number {
  const [h, m] = time.split(':').map(Number);
  return h! * 60 + m!;
}
/** One weekly time slot; a slot lies within one day (start < end ≤ 24:00). */
export const scheduleSlotSchema = z
  .object({ weekday: weekdaySchema, start: clockTimeSchema, end: clockTimeSchema })
  .strict()
  .refine((s) => s.start !== '24:00' && clockMinutes(s.start) < clockMinutes(s.end), { message: 'a slot starts before it ends, within one day', path: ['end'] });
export type ScheduleSlot = z.infer<typeof scheduleSlotSchema>;

export const cuttingPatterns = ['auto', 'stripes', 'crisscross', 'spiral'] as const;

// ---------------------------------------------------------------- runs

export const runTriggers = ['schedule', 'app', 'console', 'resume'] as const;
export type RunTrigger = (typeof runTriggers)[number];
export const runResults = ['completed', 'user_ended', 'interrupted', 'failed'] as const;
export type RunResult = (typeof runResults)[number];
export const pauseReasons = ['charging', 'rain', 'user', 'fault', 'schedule_end', 'other'] as const;
export type PauseReason = (typeof pauseReasons)[number];

// ---------------------------------------------------------------- encoded polyline

/**
 * Google's encoded polyline algorithm at precision 6 (1e-6°, as OSRM's polyline6): a run's path
 * in a few kilobytes. Points are `[lat, lng]`.
 */
export const POLYLINE_PRECISION = 6;
export function encodePolyline(points: ReadonlyArray<readonly [number, number]>, precision = POLYLINE_PRECISION): string {
  const factor = 10 ** precision;
  let out = '';
  let prevLat = 0;
  let prevLng = 0;
  const put = (delta: number) => {
    let v = delta < 0 ? ~(delta << 1) : delta << 1;
    while (v >= 0x20) {
      out += String.fromCharCode((0x20 | (v & 0x1f)) + 63);
      v >>>= 5;
    }
    out += String.fromCharCode(v + 63);
  };
  for (const [lat, lng] of points) {
    const la = Math.round(lat * factor);
    const ln = Math.round(lng * factor);
    put(la - prevLat);
    put(ln - prevLng);
    prevLat = la;
    prevLng = ln;
  }
  return out;
}
export function decodePolyline(text: string, precision = POLYLINE_PRECISION): Array<[number, number]> {
  const factor = 10 ** precision;
  const points: Array<[number, number]> = [];
  let i = 0;
  let lat = 0;
  let lng = 0;
  const take = (): number | undefined => {
    let result = 0;
    let shift = 0;
    let b: number;
    do {
      if (i >= text.length) return undefined;
      b = text.charCodeAt(i++) - 63;
      if (b < 0 || b > 63) return undefined;
      result |= (b & 0x1f) << shift;
      shift += 5;
    } while (b >= 0x20 && shift < 35);
    return result & 1 ? ~(result >> 1) : result >> 1;
  };
  while (i < text.length) {
    const dLat = take();
    const dLng = take();
    if (dLat === undefined || dLng === undefined) break;
    lat += dLat;
    lng += dLng;
    points.push([lat / factor, lng / factor]);
  }
  return points;
}
/** Characters a polyline may hold: the encoding's alphabet (ASCII 63–126). */
export const encodedPolylineSchema = z.string().max(48_000).regex(/^[?-~]*$/, 'encoded polyline');

// ---------------------------------------------------------------- device payloads

/** A run id as the mower makes it: unique per device (a ULID or random id). */
export const runIdSchema = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/);

/**
 * `…/zones`, device → server, QoS 1: every zone of the garden, the whole list each time (after
 * connecting and whenever the map changes). Zones missing from a newer list are gone.
 */
export const zonesReportSchema = z.object({
  v: z.literal(PROTOCOL_VERSION),
  ts: epochMsSchema,
  zones: z
    .array(
      z.object({
        id: zoneIdSchema,
        name: deviceTextSchema(64),
        polygon: z.array(geoPairSchema).min(3).max(500),
        areaM2: z.number().min(0).max(10_000_000),
      }),
    )
    .max(32)
    .refine((zones) => new Set(zones.map((zone) => zone.id)).size === zones.length, 'zone ids are unique'),
});
export type ZonesReport = z.infer<typeof zonesReportSchema>;

/** One schedule as the mower receives it: slots in the mower's local time (`timeZone`). */
export const deviceScheduleSchema = z.object({
  id: z.number().int().min(1),
  enabled: z.boolean(),
  slots: z.array(scheduleSlotSchema).max(28),
  zones: z.array(zoneIdSchema).max(32),
  cutting: z.object({ heightMm: z.number().int().min(20).max(100), pattern: z.enum(cuttingPatterns), edgeCut: z.boolean() }),
});
export type DeviceSchedule = z.infer<typeof deviceScheduleSchema>;

/**
 * `…/config/schedule`, server → device, QoS 1: the mower's complete schedule configuration. `rev`
 * grows with every change; the mower keeps the highest revision it applied, ignores an older one
 * (but still acknowledges it), and answers on `…/config/ack`. The server sends it after each
 * change, when the mower comes online with a revision not yet applied, and after its own restart.
 */
export const scheduleConfigSchema = z.object({
  v: z.literal(PROTOCOL_VERSION),
  rev: z.number().int().min(1).max(2_147_483_647),
  ts: epochMsSchema,
  /** The IANA zone the slots are in (the owner's, else UTC). */
  timeZone: z.string().max(64),
  schedules: z.array(deviceScheduleSchema).max(10),
});
export type ScheduleConfig = z.infer<typeof scheduleConfigSchema>;

/** `…/config/ack`, device → server, QoS 1. `ok: false` with an error marks the revision failed. */
export const configAckSchema = z.object({
  v: z.literal(PROTOCOL_VERSION),
  kind: z.literal('schedule'),
  rev: z.number().int().min(1).max(2_147_483_647),
  ok: z.boolean(),
  /** The revision the mower runs now (its highest applied). */
  applied: z.number().int().min(0).max(2_147_483_647).optional(),
  error: z.object({ code: z.string().max(64), message: deviceTextSchema(500) }).optional(),
});
export type ConfigAck = z.infer<typeof configAckSchema>;

/** Task commands on `cmd/req` (see builtinCommands). Start answers `{ runId }`; the others `{ ok: true }`. */
export const taskCommands = {
  /** args `{ zones: string[], durationMin?: number, trigger: 'app' | 'console' }` */
  start: 'task.start',
  pause: 'task.pause',
  resume: 'task.resume',
  returnHome: 'task.return_home',
  cancel: 'task.cancel',
} as const;

const runReportBase = {
  v: z.literal(PROTOCOL_VERSION),
  runId: runIdSchema,
  /** 1, 2, 3 … per run: (SN, runId, seq) makes a report unique; a lower seq never regresses the run. */
  seq: z.number().int().min(1).max(1_000_000),
  ts: epochMsSchema,
};

/**
 * `…/runs`, device → server, QoS 1: a task run's reports. Idempotent per (SN, runId, seq):
 * redelivery is ignored, and a report older than one already applied only adds to the timeline.
 */
export const runReportSchema = z.discriminatedUnion('type', [
  z.object({
    ...runReportBase,
    type: z.literal('started'),
    trigger: z.enum(runTriggers),
    /** The platform's schedule id when a schedule started it. */
    scheduleId: z.number().int().min(1).max(2_147_483_647).nullable(),
    zones: z.array(zoneIdSchema).max(32),
    plannedAreaM2: z.number().min(0).max(10_000_000),
    /** The interrupted run this one continues (trigger `resume`). */
    resumes: runIdSchema.nullable().default(null),
  }),
  z.object({
    ...runReportBase,
    type: z.literal('progress'),
    percent: z.number().min(0).max(100),
    areaM2: z.number().min(0).max(10_000_000),
  }),
  z.object({
    ...runReportBase,
    type: z.literal('paused'),
    /** Why: `charging` mid-run is a pause, never an end. */
    reason: z.enum(pauseReasons),
    battery: z.number().int().min(0).max(100).optional(),
  }),
  z.object({ ...runReportBase, type: z.literal('resumed') }),
  z.object({
    ...runReportBase,
    type: z.literal('ended'),
    result: z.enum(runResults),
    /** The fault that ended it (an event code), else null. */
    faultCode: eventCodeSchema.nullable(),
    areaM2: z.number().min(0).max(10_000_000),
    /** Mowing time, pauses excluded. */
    durationS: z.number().int().min(0).max(7 * 86_400),
    bladeOnS: z.number().int().min(0).max(7 * 86_400),
    distanceM: z.number().min(0).max(1_000_000),
    /** The path driven, Google encoded polyline at precision 6. */
    path: encodedPolylineSchema,
    /** When the run started (device time), in case its `started` report never arrives. */
    startedAt: epochMsSchema.optional(),
  }),
]);
export type RunReport = z.infer<typeof runReportSchema>;
