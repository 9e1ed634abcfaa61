import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  deviceCommandBodySchema,
  deviceCommandResultSchema,
  deviceDetailSchema,
  deviceExportQuerySchema,
  deviceHistoryQuerySchema,
  deviceHistorySchema,
  deviceListQuerySchema,
  devicePageSchema,
  envelopeSchema,
  snParamsSchema,
  type DeviceSummary,
} from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { CommandError } from '../gateway/commands.ts';
import { AppError, localeOf, ok } from '../http/envelope.ts';
import { csvCell, csvLine } from './csv.ts';
import { deviceDetail, deviceHistory } from './device-detail.service.ts';
import { allDevices, listDevices } from './device-list.service.ts';

const tags = ['devices'];
const security = [{ bearer: [] }];

const exportHeader = ['sn', 'model', 'state', 'online', 'battery', 'firmware', 'lastSeenAt', 'region', 'owner', 'lat', 'lng', 'activity', 'errorCode', 'rssi', 'enabled', 'createdAt'];

function exportLine(d: DeviceSummary): string {
  return csvLine([
    csvCell(d.sn),
    csvCell(d.modelCode),
    csvCell(d.state),
    csvCell(d.online),
    csvCell(d.battery),
    csvCell(d.firmware),
    csvCell(d.lastSeenAt),
    csvCell(d.region, true),
    csvCell(d.owner, true),
    csvCell(d.position?.lat),
    csvCell(d.position?.lng),
    csvCell(d.activity),
    csvCell(d.errorCode),
    csvCell(d.rssi),
    csvCell(d.enabled),
    csvCell(d.createdAt),
  ]);
}

function commandFailure(err: unknown): AppError {
  if (!(err instanceof CommandError)) return err instanceof AppError ? err : new AppError('FAILURE');
  switch (err.reason) {
    case 'offline':
      return new AppError('DEVICE_OFFLINE', { sn: err.sn });
    case 'timeout':
      return new AppError('DEVICE_COMMAND_TIMEOUT', { sn: err.sn, timeoutMs: err.timeoutMs });
    case 'device':
      return new AppError('DEVICE_COMMAND_FAILED', { detail: err.message }, { code: err.device?.code ?? '' });
    default:
      return new AppError('GATEWAY_UNAVAILABLE');
  }
}

/** The device list (`/device/list`), its CSV export, a device's detail, history and commands. */
export async function deviceRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const read = ctx.guard('devices');

  r.get(
    '/api/admin/device',
    { preHandler: read, schema: { tags, security, summary: 'Devices, filtered and sorted; page by `page` or by the previous `nextCursor`', querystring: deviceListQuerySchema, response: { 200: envelopeSchema(devicePageSchema) } } },
    async (request) => ok(request, await listDevices(ctx.db, request.query)),
  );

  r.get(
    '/api/admin/device/export',
    { preHandler: read, schema: { tags, security, summary: 'The filtered device list as CSV, streamed', produces: ['text/csv'], querystring: deviceExportQuerySchema } },
    async (request, reply) => {
      const filter = request.query;
      await ctx.audit(request, { action: 'device.export', result: 'success', targetType: 'device', detail: { filter } });
      async function* lines() {
        // A byte-order mark so spreadsheet programs read the UTF-8 text correctly.
        yield `\ufeff${csvLine(exportHeader)}`;
        for await (const batch of allDevices(ctx.db, filter)) yield batch.map(exportLine).join('');
      }
      const stamp = new Date().toISOString().slice(0, 19).replace(/[-:T]/g, '');
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="devices-${stamp}.csv"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(lines()));
    },
  );

  r.get(
    '/api/admin/device/:sn',
    { preHandler: read, schema: { tags, security, params: snParamsSchema, response: { 200: envelopeSchema(deviceDetailSchema) } } },
    async (request) => ok(request, await deviceDetail(ctx.db, request.params.sn, localeOf(request))),
  );

  r.get(
    '/api/admin/device/:sn/history',
    { preHandler: read, schema: { tags, security, params: snParamsSchema, querystring: deviceHistoryQuerySchema, response: { 200: envelopeSchema(deviceHistorySchema) } } },
    async (request) => ok(request, await deviceHistory(ctx.db, request.params.sn, request.query)),
  );

  r.post(
    '/api/admin/device/:sn/command',
    {
      preHandler: ctx.guard('deviceCommand'),
      schema: { tags, security, summary: 'Send ping or reboot and wait for the answer', params: snParamsSchema, body: deviceCommandBodySchema, response: { 200: envelopeSchema(deviceCommandResultSchema) } },
    },
    async (request) => {
      const { sn } = request.params;
      const { name, args, timeoutMs } = request.body;
      const audit = (result: 'success' | 'failure', detail: Record<string, unknown>) =>
        ctx.audit(request, { action: 'device.command', result, targetType: 'device', targetId: sn, targetName: sn, detail: { name, ...detail } });
      try {
        const result = await ctx.gateway.sendCommand(sn, name, args, timeoutMs);
        await audit('success', {});
        return ok(request, { ok: true, result });
      } catch (err) {
        const failure = commandFailure(err);
        await audit('failure', { error: failure.key });
        throw failure;
      }
    },
  );
}
