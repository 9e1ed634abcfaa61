import { z } from 'zod';
import { pageSchema } from '../envelope.ts';
import { endpoint, staff, staffSocket } from '../endpoint.ts';
import {
  SHELL_WS_PATH,
  shellRecordingQuerySchema,
  shellRecordingSchema,
  shellSessionParamsSchema,
  shellSessionQuerySchema,
  shellSessionSchema,
  shellStatsSchema,
} from '../shell.ts';

const tag = 'shell';

/** Remote shell: the browser's socket, session history, playback and termination (admin only). */
export const shellApi = {
  /**
   * The browser's terminal: first message `auth` with the access token, then `open`, input, resize
   * and close (`shellClientMessageSchema`). Its errors arrive as `error` messages on the socket.
   */
  socket: endpoint({
    method: 'GET',
    path: SHELL_WS_PATH,
    access: staffSocket('shell'),
    tag,
    summary: 'The remote-shell WebSocket; authenticates by its first message',
    websocket: true,
    stepUp: true,
    errors: [
      'SHELL_AUTH_REQUIRED',
      'STEP_UP_REQUIRED',
      'TWO_FACTOR_ENROL_REQUIRED',
      'SHELL_BAD_MESSAGE',
      'NOT_SIGNED_IN',
      'FORBIDDEN',
      'SN_NOT_FOUND',
      'SHELL_DEVICE_LIMIT',
      'SHELL_USER_LIMIT',
      'SHELL_REFUSED',
      'DEVICE_OFFLINE',
      'DEVICE_COMMAND_TIMEOUT',
      'GATEWAY_UNAVAILABLE',
    ],
  }),
  sessions: endpoint({
    method: 'GET',
    path: '/api/admin/device/shell/session',
    access: staff('shell'),
    tag,
    summary: 'Shell session history: who, device, start, end, bytes, close reason',
    query: shellSessionQuerySchema,
    response: pageSchema(shellSessionSchema),
  }),
  recording: endpoint({
    method: 'GET',
    path: '/api/admin/device/shell/session/:id/recording',
    access: staff('shell'),
    tag,
    summary: 'A page of a session recording (frames with their time since the start)',
    params: shellSessionParamsSchema,
    query: shellRecordingQuerySchema,
    response: shellRecordingSchema,
    errors: ['NOT_FOUND'],
  }),
  close: endpoint({
    method: 'POST',
    path: '/api/admin/device/shell/session/:id/close',
    access: staff('shell'),
    tag,
    summary: 'Terminates an open session, whichever node carries it',
    params: shellSessionParamsSchema,
    response: z.null(),
    errors: ['NOT_FOUND', 'SHELL_SESSION_CLOSED'],
    audit: 'device.shell.close',
  }),
  stats: endpoint({
    method: 'GET',
    path: '/api/admin/device/shell/stats',
    access: staff('shell'),
    tag,
    summary: "This node's shell relay: sessions and output bytes in flight",
    response: shellStatsSchema,
  }),
};
