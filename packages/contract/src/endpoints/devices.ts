import { z } from 'zod';
import { endpoint, staff } from '../endpoint.ts';
import { devicePositionsQuerySchema, devicePositionsSchema, mapPlacesQuerySchema, mapPlacesSchema } from '../device-map.ts';
import { deviceCommandBodySchema, deviceCommandResultSchema, deviceDetailSchema, deviceExportQuerySchema, deviceHistoryQuerySchema, deviceHistorySchema, deviceIngestSchema, deviceListQuerySchema, devicePageSchema, deviceRegionsSchema, eventActionBodySchema, eventActionResultSchema, eventCountSchema, eventCountsQuerySchema, eventListQuerySchema, eventPageSchema, gatewayStatsSchema, onlineStatsQuerySchema, onlineStatsSchema } from '../devices.ts';
import { snParamsSchema } from '../product-sn.ts';

const tag = 'devices';

/** The device list (`/device/list`), its CSV export, a device's detail, history and commands; gateway counters. */
export const devicesApi = {
  list: endpoint({
    method: 'GET',
    path: '/api/admin/device',
    access: staff('devices'),
    tag,
    summary: 'Devices, filtered and sorted; page by `page` or by the previous `nextCursor`',
    query: deviceListQuerySchema,
    response: devicePageSchema,
    errors: ['INVALID_CURSOR', 'GROUP_NOT_FOUND'],
  }),
  export: endpoint({
    method: 'GET',
    path: '/api/admin/device/export',
    access: staff('devices'),
    tag,
    summary: 'The filtered device list as CSV, streamed',
    query: deviceExportQuerySchema,
    produces: 'text/csv',
    errors: ['GROUP_NOT_FOUND'],
    audit: 'device.export',
  }),
  regions: endpoint({
    method: 'GET',
    path: '/api/admin/device/regions',
    access: staff('devices'),
    tag,
    summary: 'Every region at least one device is registered in, sorted (the region filters offer these)',
    response: deviceRegionsSchema,
  }),
  gatewayStats: endpoint({
    method: 'GET',
    path: '/api/admin/device/gateway-stats',
    access: staff('deviceCommand'),
    tag,
    summary: "This server node's broker mode, ports and counters since it started",
    response: gatewayStatsSchema,
  }),
  detail: endpoint({
    method: 'GET',
    path: '/api/admin/device/:sn',
    access: staff('devices'),
    tag,
    summary: 'Latest telemetry, registry fields and recent events (texts in the request language)',
    params: snParamsSchema,
    response: deviceDetailSchema,
    errors: ['SN_NOT_FOUND'],
  }),
  history: endpoint({
    method: 'GET',
    path: '/api/admin/device/:sn/history',
    access: staff('devices'),
    tag,
    summary: 'Telemetry over a time range, bucketed for a chart',
    params: snParamsSchema,
    query: deviceHistoryQuerySchema,
    response: deviceHistorySchema,
    errors: ['SN_NOT_FOUND'],
  }),
  command: endpoint({
    method: 'POST',
    path: '/api/admin/device/:sn/command',
    access: staff('deviceCommand'),
    tag,
    summary: 'Send ping or reboot and wait for the answer',
    params: snParamsSchema,
    body: deviceCommandBodySchema,
    response: deviceCommandResultSchema,
    errors: ['DEVICE_OFFLINE', 'DEVICE_COMMAND_TIMEOUT', 'DEVICE_COMMAND_FAILED', 'GATEWAY_UNAVAILABLE'],
    audit: 'device.command',
  }),
  clearFlag: endpoint({
    method: 'POST',
    path: '/api/admin/device/:sn/clear-flag',
    access: staff('productSnWrite'),
    tag,
    summary: 'Clear the flag a device got for staying far above its ingest limits (it stays limited)',
    params: snParamsSchema,
    response: deviceIngestSchema,
    errors: ['SN_NOT_FOUND'],
    audit: 'device.flag.clear',
  }),
};

/** The device map (`/device/device-map`): compact positions, full or as a delta. */
export const deviceMapApi = {
  positions: endpoint({
    method: 'GET',
    path: '/api/admin/device/positions',
    access: staff('devices'),
    tag,
    summary: 'Positions and states of every positioned device (parallel arrays); with `since`, only those changed since',
    query: devicePositionsQuerySchema,
    response: devicePositionsSchema,
  }),
  places: endpoint({
    method: 'GET',
    path: '/api/admin/device/places',
    access: staff('devices'),
    tag,
    summary: 'The most populous places inside a view (west, south, east, north), for the offline base map',
    query: mapPlacesQuerySchema,
    response: mapPlacesSchema,
  }),
};

const eventsTag = 'device events';

/** Exception events (`/device/device-exception-event`): list, per-code counts, acknowledge, clear. */
export const deviceEventsApi = {
  list: endpoint({
    method: 'GET',
    path: '/api/admin/device/event',
    access: staff('deviceEvents'),
    tag: eventsTag,
    summary: 'Exception events, newest first (code texts in the request language)',
    query: eventListQuerySchema,
    response: eventPageSchema,
  }),
  counts: endpoint({
    method: 'GET',
    path: '/api/admin/device/event/counts',
    access: staff('deviceEvents'),
    tag: eventsTag,
    summary: 'Per code: how many events, by status, last seen in the time range',
    query: eventCountsQuerySchema,
    response: z.array(eventCountSchema),
  }),
  ack: endpoint({
    method: 'POST',
    path: '/api/admin/device/event/ack',
    access: staff('deviceEvents'),
    tag: eventsTag,
    summary: 'Acknowledge active events',
    body: eventActionBodySchema,
    response: eventActionResultSchema,
    audit: 'device.event.ack',
  }),
  clear: endpoint({
    method: 'POST',
    path: '/api/admin/device/event/clear',
    access: staff('deviceEvents'),
    tag: eventsTag,
    summary: 'Clear active or acknowledged events',
    body: eventActionBodySchema,
    response: eventActionResultSchema,
    audit: 'device.event.clear',
  }),
};

/** The dashboard's and device list's online figures. */
export const statisticsApi = {
  online: endpoint({
    method: 'GET',
    path: '/api/admin/statistics/online',
    access: staff('devices'),
    tag: 'statistics',
    summary: 'Devices online now and the online count over time (sampled every minute)',
    query: onlineStatsQuerySchema,
    response: onlineStatsSchema,
  }),
};
