import { z } from 'zod';
import type { Localized } from './locale.ts';

/**
 * The device protocol (docs/device-protocol.md is its prose): MQTT topics and payloads between
 * mowers and the platform. Every payload is JSON with the protocol version in `v`; unknown fields
 * are ignored so a newer device can talk to an older server within the same major version.
 */
export const PROTOCOL_VERSION = 1 as const;
export const TOPIC_ROOT = 'mowerline/v1/devices';

/** Upper-case letters, digits and inner dashes, 4–32 characters: safe in topics (no `/ + #`), CSV and file names. */
export const SN_PATTERN = /^[A-Z0-9][A-Z0-9-]{2,30}[A-Z0-9]$/;
export const snSchema = z.string().trim().toUpperCase().regex(SN_PATTERN, 'upper-case letters, digits and dashes, 4–32 characters');

/** Semantic version as devices report it (`1.4.2`, `2.0.0-rc.1`); forms check it with the same pattern. */
export const FIRMWARE_VERSION_PATTERN = /^\d{1,4}\.\d{1,4}\.\d{1,4}(?:[-+][0-9A-Za-z.-]{1,16})?$/;
export const firmwareVersionSchema = z.string().max(32).regex(FIRMWARE_VERSION_PATTERN, 'semantic version');

/** Unix time in milliseconds, between 2017 and 2100 (a device without a clock fix must not send 1970). */
export const epochMsSchema = z.number().int().min(1_500_000_000_000).max(4_102_444_800_000);

/** Topic suffixes under `mowerline/v1/devices/{sn}/`. */
export const deviceTopics = {
  telemetry: 'telemetry',
  events: 'events',
  status: 'status',
  cmdReq: 'cmd/req',
  cmdRes: 'cmd/res',
  /** Device → server, QoS 1: the garden's zones (tasks). */
  zones: 'zones',
  /** Device → server, QoS 1: task-run reports (tasks). */
  runs: 'runs',
  /** Server → device, QoS 1: the schedule configuration with its revision (tasks). */
  configSchedule: 'config/schedule',
  /** Device → server, QoS 1: the mower applied (or refused) a configuration revision. */
  configAck: 'config/ack',
} as const;
export type DeviceTopicSuffix = (typeof deviceTopics)[keyof typeof deviceTopics];

/**
 * Server → device topics (relative MQTT filters). A device may subscribe under its own prefix
 * but never publish to these; every other topic under its prefix is device → server.
 * Later features add their downstream topics here.
 */
export const serverToDeviceTopics: readonly string[] = [deviceTopics.cmdReq, 'shell/+/in', deviceTopics.configSchedule];

export function deviceTopic(sn: string, suffix: string): string {
  return `${TOPIC_ROOT}/${sn}/${suffix}`;
}

/** `mowerline/v1/devices/{sn}/{suffix}` → its parts, or undefined for any other topic. */
export function parseDeviceTopic(topic: string): { sn: string; suffix: string } | undefined {
  if (!topic.startsWith(`${TOPIC_ROOT}/`)) return undefined;
  const rest = topic.slice(TOPIC_ROOT.length + 1);
  const slash = rest.indexOf('/');
  if (slash <= 0) return undefined;
  const sn = rest.slice(0, slash);
  const suffix = rest.slice(slash + 1);
  if (!SN_PATTERN.test(sn) || suffix === '') return undefined;
  return { sn, suffix };
}

/**
 * MQTT topic-filter matching (`+` one level, `#` the rest, which includes its parent level).
 * Walks both strings in place: it runs several times per ingested message, and splitting both into
 * arrays was 4.5 % of the server's busy time at 10,000 msg/s (bench/ingest.ts profile).
 */
export function topicMatches(filter: string, topic: string): boolean {
  let f = 0;
  let t = 0;
  for (;;) {
    const fEnd = levelEnd(filter, f);
    if (fEnd - f === 1 && filter.charCodeAt(f) === 35 /* # */) return true;
    // The topic has no level left here (a/b against a/b/c).
    if (t > topic.length) return false;
    const tEnd = levelEnd(topic, t);
    const wildcard = fEnd - f === 1 && filter.charCodeAt(f) === 43; /* + */
    if (!wildcard && !sameLevel(filter, f, fEnd, topic, t, tEnd)) return false;
    if (fEnd === filter.length) return tEnd === topic.length;
    f = fEnd + 1;
    t = tEnd + 1;
  }
}

function levelEnd(s: string, from: number): number {
  const slash = s.indexOf('/', from);
  return slash < 0 ? s.length : slash;
}

function sameLevel(a: string, aFrom: number, aEnd: number, b: string, bFrom: number, bEnd: number): boolean {
  if (aEnd - aFrom !== bEnd - bFrom) return false;
  for (let i = 0; i < aEnd - aFrom; i++) if (a.charCodeAt(aFrom + i) !== b.charCodeAt(bFrom + i)) return false;
  return true;
}

/** The device ACL, shared by the embedded broker and the HTTP ACL endpoint for external brokers. */
export function deviceMayPublish(sn: string, topic: string): boolean {
  const parsed = parseDeviceTopic(topic);
  if (!parsed || parsed.sn !== sn || /[+#]/.test(topic)) return false;
  return !serverToDeviceTopics.some((filter) => topicMatches(filter, parsed.suffix));
}

export function deviceMaySubscribe(sn: string, filter: string): boolean {
  const prefix = `${TOPIC_ROOT}/${sn}/`;
  return filter.startsWith(prefix) && filter.length > prefix.length;
}

/** The state the console shows; `offline` is never reported, the server derives it from presence. */
export const reportedStates = ['idle', 'mowing', 'returning', 'charging', 'paused', 'error', 'updating'] as const;
export type ReportedState = (typeof reportedStates)[number];
export const deviceStates = [...reportedStates, 'offline'] as const;
export type DeviceState = (typeof deviceStates)[number];

/** What the mower is doing, after Husqvarna Automower Connect's activity model. */
export const mowerActivities = ['unknown', 'mowing', 'going_home', 'charging', 'leaving', 'parked_in_cs', 'stopped_in_garden'] as const;
export type MowerActivity = (typeof mowerActivities)[number];

export const eventSeverities = ['critical', 'major', 'minor', 'warning'] as const;
export type EventSeverity = (typeof eventSeverities)[number];

const EVENT_CODE_PATTERN = /^[A-Z][A-Z0-9_]{1,47}$/;
export const eventCodeSchema = z.string().regex(EVENT_CODE_PATTERN, 'upper-case code such as BLADE_BLOCKED');

/**
 * Known fault codes with their usual severity and description. Devices may send other codes; the
 * platform stores them with the severity the device chose and no description.
 */
export const eventCatalogue: Record<string, { severity: EventSeverity } & Localized> = {
  UPSIDE_DOWN: { severity: 'critical', 'zh-CN': '割草机翻倒', 'en-US': 'Mower is upside down' },
  BATTERY_OVERHEAT: { severity: 'critical', 'zh-CN': '电池温度过高', 'en-US': 'Battery overheating' },
  LIFTED: { severity: 'major', 'zh-CN': '割草机被抬起', 'en-US': 'Mower lifted' },
  BLADE_BLOCKED: { severity: 'major', 'zh-CN': '刀盘被卡住', 'en-US': 'Blade blocked' },
  WHEEL_MOTOR_OVERLOAD: { severity: 'major', 'zh-CN': '驱动轮电机过载', 'en-US': 'Wheel motor overloaded' },
  STUCK: { severity: 'major', 'zh-CN': '割草机被困', 'en-US': 'Mower is stuck' },
  OUTSIDE_WORKING_AREA: { severity: 'minor', 'zh-CN': '超出工作区域', 'en-US': 'Outside the working area' },
  GNSS_FIX_LOST: { severity: 'minor', 'zh-CN': '定位信号丢失', 'en-US': 'Positioning (RTK) fix lost' },
  COLLISION_SENSOR: { severity: 'minor', 'zh-CN': '碰撞传感器故障', 'en-US': 'Collision sensor fault' },
  CHARGING_STATION_BLOCKED: { severity: 'minor', 'zh-CN': '充电站被阻挡', 'en-US': 'Charging station blocked' },
  LOW_BATTERY: { severity: 'warning', 'zh-CN': '电量低', 'en-US': 'Low battery' },
  RAIN_DELAY: { severity: 'warning', 'zh-CN': '检测到雨水，暂停作业', 'en-US': 'Rain detected, mowing paused' },
};

/**
 * NUL and UTF-16 halves without their other half: JSON can carry them, PostgreSQL text and jsonb
 * cannot store them. One such character once failed a whole write batch with other devices' data
 * in it.
 */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this finds
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Device text as PostgreSQL can store it: each unstorable character becomes U+FFFD, the rest is kept. */
export function storableText(text: string): string {
  return text.replace(UNSTORABLE, '\uFFFD');
}

/** Free text from a device (an event's message, context values): neutralised, never refused, so the event itself is kept. */
export const deviceTextSchema = (max: number) => z.string().max(max).transform(storableText);

const scalar = z.union([deviceTextSchema(256), z.number(), z.boolean(), z.null()]);

/** `…/telemetry`, QoS 1, at least every 60 s while connected (it doubles as the heartbeat). */
export const telemetrySchema = z.object({
  v: z.literal(PROTOCOL_VERSION),
  ts: epochMsSchema,
  state: z.enum(reportedStates),
  activity: z.enum(mowerActivities),
  /** The active fault (an event code) while `state` is `error`, else null. */
  errorCode: eventCodeSchema.nullable(),
  /** State of charge, percent. */
  battery: z.number().int().min(0).max(100),
  /** Null while the mower has no position fix. */
  position: z
    .object({
      lat: z.number().min(-90).max(90),
      lng: z.number().min(-180).max(180),
      /** Degrees clockwise from north. */
      heading: z.number().min(0).lt(360),
    })
    .nullable(),
  bladeRpm: z.number().int().min(0).max(10_000),
  /** Received signal strength of the uplink, dBm. */
  rssi: z.number().int().min(-150).max(0),
  firmware: firmwareVersionSchema,
});
export type Telemetry = z.infer<typeof telemetrySchema>;

const reportedStateSet = new Set<string>(reportedStates);
const mowerActivitySet = new Set<string>(mowerActivities);
const isNumberIn = (x: unknown, min: number, max: number): x is number => typeof x === 'number' && x >= min && x <= max;
const isIntIn = (x: unknown, min: number, max: number): x is number => Number.isSafeInteger(x) && (x as number) >= min && (x as number) <= max;

/**
 * `telemetrySchema` by hand, for the ingest's hot path (10,000 reports/s; zod's generic checks
 * were 6 % of the server's busy time in bench/ingest.ts). It accepts exactly what the schema
 * accepts and returns the same output (unknown keys stripped), which a property test holds it to;
 * for anything it does not accept it returns undefined, and the caller asks the schema, which
 * then also says why.
 */
export function parseTelemetryFast(json: unknown): Telemetry | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  const { v, ts, state, activity, errorCode, battery, position, bladeRpm, rssi, firmware } = json as Record<string, unknown>;
  if (v !== PROTOCOL_VERSION || !isIntIn(ts, 1_500_000_000_000, 4_102_444_800_000)) return undefined;
  if (typeof state !== 'string' || !reportedStateSet.has(state) || typeof activity !== 'string' || !mowerActivitySet.has(activity)) return undefined;
  if (errorCode !== null && (typeof errorCode !== 'string' || !EVENT_CODE_PATTERN.test(errorCode))) return undefined;
  if (!isIntIn(battery, 0, 100) || !isIntIn(bladeRpm, 0, 10_000) || !isIntIn(rssi, -150, 0)) return undefined;
  if (typeof firmware !== 'string' || firmware.length > 32 || !FIRMWARE_VERSION_PATTERN.test(firmware)) return undefined;
  let fix: Telemetry['position'] = null;
  if (position !== null) {
    if (typeof position !== 'object' || Array.isArray(position)) return undefined;
    const { lat, lng, heading } = position as Record<string, unknown>;
    if (!isNumberIn(lat, -90, 90) || !isNumberIn(lng, -180, 180) || !isNumberIn(heading, 0, 360) || heading === 360) return undefined;
    fix = { lat, lng, heading };
  }
  return { v, ts, state: state as Telemetry['state'], activity: activity as Telemetry['activity'], errorCode, battery, position: fix, bladeRpm, rssi, firmware };
}

/** `…/events`, QoS 1: a fault or notable condition. `id` is unique per device and makes redelivery harmless. */
export const eventPayloadSchema = z.object({
  v: z.literal(PROTOCOL_VERSION),
  id: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/),
  ts: epochMsSchema,
  code: eventCodeSchema,
  severity: z.enum(eventSeverities),
  message: deviceTextSchema(500),
  context: z
    .record(z.string().max(64), scalar)
    .refine((c) => Object.keys(c).length <= 32, 'at most 32 context fields')
    .transform((c) => Object.fromEntries(Object.entries(c).map(([k, v]) => [storableText(k), v])))
    .default({}),
});
export type EventPayload = z.infer<typeof eventPayloadSchema>;

/**
 * `…/status`, QoS 1, retained. The device publishes `online: true` right after connecting and
 * `online: false` before a clean disconnect; the same `online: false` is its MQTT last will. `conn`
 * is a fresh random id per connection, so a late will of an old connection is recognised and ignored.
 */
export const deviceStatusSchema = z.object({
  v: z.literal(PROTOCOL_VERSION),
  online: z.boolean(),
  conn: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/),
  ts: epochMsSchema.optional(),
  firmware: firmwareVersionSchema.optional(),
});
export type DeviceStatus = z.infer<typeof deviceStatusSchema>;

export const commandNameSchema = z.string().regex(/^[a-z][a-z0-9_.-]{0,63}$/);
export const commandIdSchema = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/);
export const MIN_COMMAND_TIMEOUT_MS = 100;
export const MAX_COMMAND_TIMEOUT_MS = 600_000;

/**
 * `…/cmd/req`, server → device, QoS 1. The device must answer on `…/cmd/res` with the same `id`
 * before `deadline` (Unix ms) and drop a request whose deadline has passed.
 */
export const commandRequestSchema = z.object({
  v: z.literal(PROTOCOL_VERSION),
  id: commandIdSchema,
  name: commandNameSchema,
  args: z.record(z.string(), z.unknown()),
  timeoutMs: z.number().int().min(MIN_COMMAND_TIMEOUT_MS).max(MAX_COMMAND_TIMEOUT_MS),
  deadline: epochMsSchema,
});
export type CommandRequest = z.infer<typeof commandRequestSchema>;

export const commandErrorSchema = z.object({ code: z.string().max(64), message: z.string().max(500) });
export type CommandErrorBody = z.infer<typeof commandErrorSchema>;

/** `…/cmd/res`, device → server, QoS 1. */
export const commandResponseSchema = z.discriminatedUnion('ok', [
  z.object({ v: z.literal(PROTOCOL_VERSION), id: commandIdSchema, ok: z.literal(true), result: z.unknown() }),
  z.object({ v: z.literal(PROTOCOL_VERSION), id: commandIdSchema, ok: z.literal(false), error: commandErrorSchema }),
]);
export type CommandResponse = z.infer<typeof commandResponseSchema>;

/** Commands every device implements; later features add theirs (shell, OTA, tasks). */
export const builtinCommands = {
  /** → `{ pong: true, uptimeS, firmware }` */
  ping: 'ping',
  /** args `{ delayMs? }` → `{ rebooting: true }`; the device then disconnects cleanly and comes back. */
  reboot: 'reboot',
} as const;

/** Error codes a device answers with in `cmd/res`. */
export const commandErrorCodes = { unknownCommand: 'UNKNOWN_COMMAND', badArgs: 'BAD_ARGS', busy: 'BUSY', failed: 'FAILED' } as const;

/** Largest payload the platform accepts on an upstream topic; larger messages are dropped and counted. */
export const MAX_DEVICE_PAYLOAD_BYTES = 64 * 1024;

/**
 * Largest payload per upstream topic, enforced by the embedded broker before it acknowledges a
 * publish (docs/device-protocol.md, "Limits"). Presence and progress reports are small; telemetry,
 * events and command responses get MAX_DEVICE_PAYLOAD_BYTES; shell output carries base64 chunks of
 * SHELL_MAX_CHUNK_BYTES (16 KiB) and stays below it too.
 */
export const MAX_STATUS_PAYLOAD_BYTES = 1024;
export function maxDevicePayloadBytes(suffix: string): number {
  return suffix === deviceTopics.status ? MAX_STATUS_PAYLOAD_BYTES : MAX_DEVICE_PAYLOAD_BYTES;
}

/** The only upstream topic whose messages the broker retains (the device's last presence). */
export const retainedDeviceTopics: readonly string[] = [deviceTopics.status];

/** May the broker retain this device publish? Retained messages elsewhere would let one device fill the broker's memory. */
export function deviceMayRetain(topic: string): boolean {
  const parsed = parseDeviceTopic(topic);
  return !!parsed && retainedDeviceTopics.includes(parsed.suffix);
}
