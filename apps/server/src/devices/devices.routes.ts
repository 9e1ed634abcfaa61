import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { devicesApi, type DeviceSummary } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { commandFailure } from '../gateway/commands.ts';
import { serve } from '../http/endpoints.ts';
import { localeOf } from '../http/envelope.ts';
import { csvCell, csvLine } from './csv.ts';
import { clearDeviceFlag, deviceDetail, deviceHistory } from './device-detail.service.ts';
import { resolveListFilter } from '../device-groups/list-filter.ts';
import { allDevices, listDevices } from './device-list.service.ts';
import { deviceRegions } from './device-regions.service.ts';

const exportHeader = ['sn', 'model', 'state', 'online', 'battery', 'firmware', 'lastSeenAt', 'region', 'owner', 'lat', 'lng', 'activity', 'errorCode', 'rssi', 'enabled', 'createdAt', 'tags'];

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
    // `key=value` pairs joined by `;`, in key order.
    csvCell(Object.entries(d.tags).map(([k, v]) => `${k}=${v}`).join(';'), true),
  ]);
}


/** The device list (`/device/list`), its CSV export, a device's detail, history and commands; this node's gateway counters. */
export async function deviceRoutes(app: FastifyInstance, ctx: AppContext) {
  serve(app, ctx, devicesApi, {
    list: ({ query }) => listDevices(ctx.db, query),

    export: async ({ query, reply, audit }) => {
      audit({ targetType: 'device', detail: { filter: query } });
      // Resolved before the answer starts: an unknown group is an error answer, not a broken stream.
      const filter = await resolveListFilter(ctx.db, query);
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

    regions: () => deviceRegions(ctx.db),

    gatewayStats: async () => {
      const endpoints = ctx.gateway.endpoints();
      return {
        nodeId: ctx.gateway.nodeId,
        mode: ctx.gateway.mode,
        ports: { tcp: endpoints.tcpPort, tls: endpoints.tlsPort, websocketPath: endpoints.websocketPath },
        ...ctx.gateway.stats(),
      };
    },

    detail: ({ params, request }) => deviceDetail(ctx.db, params.sn, localeOf(request), ctx.gateway.pendingDrops(params.sn)),

    clearFlag: async ({ params, request, audit }) => {
      audit({ targetType: 'device', targetId: params.sn, targetName: params.sn });
      const { before } = await clearDeviceFlag(ctx.db, params.sn);
      ctx.gateway.flagCleared(params.sn);
      audit({ detail: { flaggedAt: before } });
      return (await deviceDetail(ctx.db, params.sn, localeOf(request), ctx.gateway.pendingDrops(params.sn))).ingest;
    },

    history: ({ params, query }) => deviceHistory(ctx.db, params.sn, query),

    command: async ({ params, body, audit }) => {
      const { sn } = params;
      const { name, args, timeoutMs } = body;
      audit({ targetType: 'device', targetId: sn, targetName: sn, detail: { name } });
      try {
        return { ok: true, result: await ctx.gateway.sendCommand(sn, name, args, timeoutMs) };
      } catch (err) {
        throw commandFailure(err);
      }
    },
  });
}
