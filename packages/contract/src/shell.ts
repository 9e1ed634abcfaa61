import { z } from 'zod';
import { PROTOCOL_VERSION, snSchema, TOPIC_ROOT } from './device-protocol.ts';
import { INT4_MAX, isoTimeQuery, pageQuerySchema } from './envelope.ts';

/**
 * The remote shell (docs/device-protocol.md, "Remote shell"): a session is opened with the
 * `shell.open` command, then travels on two per-session topics, one per direction, so that data
 * and control stay in one ordered stream each way:
 *   `mowerline/v1/devices/{sn}/shell/{sid}/in`   platform → device (input, resize, credit, close)
 *   `mowerline/v1/devices/{sn}/shell/{sid}/out`  device → platform (output, close)
 */
export const SHELL_OPEN_COMMAND = 'shell.open';
/** Session ids are topic levels: no `/ + #`. */
export const shellSessionIdSchema = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/);

export const shellTopicSuffixes = { in: 'in', out: 'out' } as const;
export function shellTopic(sn: string, sid: string, direction: 'in' | 'out'): string {
  return `${TOPIC_ROOT}/${sn}/shell/${sid}/${direction}`;
}
/** Relative filter of the platform → device shell topics (devices may subscribe, never publish). */
export const SHELL_IN_FILTER = 'shell/+/in';

/** Largest output chunk a device sends in one message (raw bytes before base64). */
export const SHELL_MAX_CHUNK_BYTES = 16 * 1024;
/** Largest input message from the browser (characters). */
export const SHELL_MAX_INPUT_CHARS = 8 * 1024;
export const shellColsSchema = z.number().int().min(10).max(500);
export const shellRowsSchema = z.number().int().min(3).max(200);

const base64 = z.string().max(Math.ceil((SHELL_MAX_CHUNK_BYTES * 4) / 3) + 4).regex(/^[A-Za-z0-9+/]*={0,2}$/);

/** Arguments of the `shell.open` command. */
export const shellOpenArgsSchema = z.object({
  sessionId: shellSessionIdSchema,
  cols: shellColsSchema,
  rows: shellRowsSchema,
  /** Output bytes the device may send before it waits for a credit (the first `upTo`). */
  window: z.number().int().min(SHELL_MAX_CHUNK_BYTES).max(16 * 1024 * 1024),
  /** The device closes the session on its own when the platform is silent this long. */
  idleMs: z.number().int().min(100),
  maxMs: z.number().int().min(100),
  /** Username of the staff member, for the device's own log. */
  user: z.string().max(64),
});
export type ShellOpenArgs = z.infer<typeof shellOpenArgsSchema>;
/** Result of an accepted `shell.open`; a refusal is an ordinary command error (`REFUSED`, `BUSY`). */
export const shellOpenResultSchema = z.object({ accepted: z.literal(true), shell: z.string().max(64) });
export const shellRefusalCodes = { refused: 'REFUSED', busy: 'BUSY' } as const;

/** Why a session ended (history, browser and device all use these). */
export const shellCloseReasons = [
  'exit', // the user left the shell (`exit`, Ctrl-D)
  'user', // the browser closed the tab or pressed close
  'terminated', // an administrator ended it through the API
  'revoked', // the staff member signed out, was disabled or lost the admin role meanwhile
  'idle', // SHELL_IDLE_MINUTES without input or output
  'max_duration', // SHELL_MAX_MINUTES reached
  'device_offline', // the device disconnected or reconnected (its sessions are gone)
  'device_closed', // the device ended it (reboot, its own limits)
  'refused', // the device refused to open it
  'flow_violation', // the device sent beyond its credit or out of order: cut off
  'browser_gone', // the browser's socket dropped
  'server_shutdown', // the server node carrying it stopped
  'node_lost', // the node carrying it stopped answering (found by another node)
] as const;
export type ShellCloseReason = (typeof shellCloseReasons)[number];

/** `…/shell/{sid}/in`, platform → device. `seq` counts every message of the session in this direction. */
export const shellDownSchema = z.discriminatedUnion('t', [
  z.object({ v: z.literal(PROTOCOL_VERSION), t: z.literal('data'), seq: z.number().int().min(0), data: base64 }),
  z.object({ v: z.literal(PROTOCOL_VERSION), t: z.literal('resize'), seq: z.number().int().min(0), cols: shellColsSchema, rows: shellRowsSchema }),
  /** The device may send output up to byte offset `upTo` (cumulative, so repeats are harmless). */
  z.object({ v: z.literal(PROTOCOL_VERSION), t: z.literal('credit'), seq: z.number().int().min(0), upTo: z.number().int().min(0) }),
  /** Keep-alive while the browser is quiet, so the device's own idle timer sees the platform alive. */
  z.object({ v: z.literal(PROTOCOL_VERSION), t: z.literal('ping'), seq: z.number().int().min(0) }),
  z.object({ v: z.literal(PROTOCOL_VERSION), t: z.literal('close'), seq: z.number().int().min(0), reason: z.enum(shellCloseReasons) }),
]);
export type ShellDown = z.infer<typeof shellDownSchema>;

/** `…/shell/{sid}/out`, device → platform. `off` is the byte offset of the chunk in the output stream. */
export const shellUpSchema = z.discriminatedUnion('t', [
  z.object({ v: z.literal(PROTOCOL_VERSION), t: z.literal('data'), seq: z.number().int().min(0), off: z.number().int().min(0), data: base64 }),
  z.object({ v: z.literal(PROTOCOL_VERSION), t: z.literal('close'), seq: z.number().int().min(0), reason: z.enum(['exit', 'device_closed', 'idle', 'max_duration']), message: z.string().max(200).optional() }),
]);
export type ShellUp = z.infer<typeof shellUpSchema>;

// ---------------------------------------------------------------- browser WebSocket

/** The browser's socket: `GET /api/admin/device/shell/ws`, first message `auth` (never a query string). */
export const SHELL_WS_PATH = '/api/admin/device/shell/ws';
export const shellClientMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('auth'), token: z.string().min(1).max(4096) }).strict(),
  z.object({ type: z.literal('open'), sn: snSchema, cols: shellColsSchema, rows: shellRowsSchema }).strict(),
  z.object({ type: z.literal('input'), data: z.string().min(1).max(SHELL_MAX_INPUT_CHARS) }).strict(),
  z.object({ type: z.literal('resize'), cols: shellColsSchema, rows: shellRowsSchema }).strict(),
  z.object({ type: z.literal('close') }).strict(),
]);
export type ShellClientMessage = z.infer<typeof shellClientMessageSchema>;

/** Text frames from the server; the terminal output itself arrives as binary frames. */
export type ShellServerMessage =
  | { type: 'ready' }
  | { type: 'opened'; sessionId: string; sn: string; idleMs: number; maxMs: number }
  | { type: 'closed'; reason: ShellCloseReason; message?: string }
  | { type: 'error'; code: number; msg: string };

// ---------------------------------------------------------------- history and playback

export const shellSessionStatuses = ['open', 'closed'] as const;
export const shellSessionSchema = z.object({
  id: z.string(),
  sn: z.string(),
  staffId: z.number().int(),
  staffName: z.string(),
  status: z.enum(shellSessionStatuses),
  openedAt: z.string(),
  closedAt: z.string().nullable(),
  closeReason: z.enum(shellCloseReasons).nullable(),
  closeMessage: z.string(),
  bytesIn: z.number().int(),
  bytesOut: z.number().int(),
  cols: z.number().int(),
  rows: z.number().int(),
  /** Output beyond SHELL_RECORD_MAX_BYTES was shown but not recorded. */
  recordTruncated: z.boolean(),
  ip: z.string(),
});
export type ShellSession = z.infer<typeof shellSessionSchema>;

/** GET /api/admin/device/shell/session */
export const shellSessionQuerySchema = pageQuerySchema
  .extend({
    sn: z.string().trim().toUpperCase().max(32).optional(),
    staff: z.string().trim().max(64).optional(),
    status: z.enum(shellSessionStatuses).optional(),
    from: isoTimeQuery,
    to: isoTimeQuery,
  })
  .strict();
export type ShellSessionQuery = z.infer<typeof shellSessionQuerySchema>;
export const shellSessionParamsSchema = z.object({ id: shellSessionIdSchema }).strict();

/** One recorded frame: `o` output, `i` input, `r` resize (data `cols x rows`); `at` ms since the start. */
export const shellFrameKinds = ['o', 'i', 'r'] as const;
export const shellFrameSchema = z.object({ seq: z.number().int(), at: z.number().int(), kind: z.enum(shellFrameKinds), data: z.string() });
export type ShellFrame = z.infer<typeof shellFrameSchema>;

/** GET /api/admin/device/shell/session/:id/recording — pages of frames (data base64) by `after` seq. */
export const shellRecordingQuerySchema = z
  .object({ after: z.coerce.number().int().min(-1).max(INT4_MAX).default(-1), limit: z.coerce.number().int().min(1).max(2000).default(500) })
  .strict();
export const shellRecordingSchema = z.object({
  session: shellSessionSchema,
  frames: z.array(shellFrameSchema),
  /** Pass as `after` for the next page; null at the end. */
  next: z.number().int().nullable(),
});
export type ShellRecording = z.infer<typeof shellRecordingSchema>;

/** GET /api/admin/device/shell/stats — this node's relay (back-pressure is observable). */
export const shellStatsSchema = z.object({
  nodeId: z.string(),
  sessions: z.number().int(),
  bufferedBytes: z.number().int(),
  peakBufferedBytes: z.number().int(),
  windowBytes: z.number().int(),
});
export type ShellStats = z.infer<typeof shellStatsSchema>;
