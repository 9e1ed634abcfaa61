import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import {
  campaignActions,
  campaignCreateBodySchema,
  campaignListQuerySchema,
  campaignSchema,
  envelopeSchema,
  idParam,
  pageSchema,
  snSchema,
  upgradeLogExportQuerySchema,
  upgradeLogQuerySchema,
  upgradeRecordSchema,
} from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { devices } from '../devices/devices.sql.ts';
import { AppError, ok } from '../http/envelope.ts';
import { principal } from '../http/auth.ts';
import { firmwareRoutes } from '../firmware/firmware.routes.ts';
import { createSigner, createUrlSigner } from '../firmware/signing.ts';
import { changeCampaign, createCampaign, getCampaign, listCampaigns } from './campaign.service.ts';
import { OtaEngine } from './engine.ts';
import { deviceUpgradeHistory, exportUpgradeLog, listUpgradeLog } from './upgrade-log.service.ts';

const idParams = z.object({ id: idParam }).strict();
const actionParams = z.object({ id: idParam, action: z.enum(campaignActions) }).strict();
const snParams = z.object({ sn: snSchema }).strict();
const secured = { tags: ['ota'], security: [{ bearer: [] }] };

/**
 * OTA: artifacts (firmware, voice packs), campaigns run by the engine, the upgrade log. The engine
 * starts after the device gateway (it listens on device topics) and stops before it.
 */
export async function otaRoutes(app: FastifyInstance, ctx: AppContext) {
  const signer = createSigner(ctx.config);
  const urls = createUrlSigner(ctx.config);
  const engine = new OtaEngine({ database: ctx.database, db: ctx.db, gateway: ctx.gateway, config: ctx.config, urls, log: app.log });
  app.addHook('onReady', async () => engine.start());
  app.addHook('preClose', async () => engine.stop());

  await firmwareRoutes(app, ctx, signer, urls);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/admin/ota/campaign',
    { preHandler: ctx.guard('firmware'), schema: { ...secured, querystring: campaignListQuerySchema, response: { 200: envelopeSchema(pageSchema(campaignSchema)) } } },
    async (request) => ok(request, await listCampaigns(ctx.db, request.query)),
  );

  r.get(
    '/api/admin/ota/campaign/:id',
    { preHandler: ctx.guard('firmware'), schema: { ...secured, params: idParams, response: { 200: envelopeSchema(campaignSchema) } } },
    async (request) => ok(request, await getCampaign(ctx.db, request.params.id)),
  );

  r.post(
    '/api/admin/ota/campaign',
    { preHandler: ctx.guard('campaignControl'), schema: { ...secured, body: campaignCreateBodySchema, response: { 200: envelopeSchema(campaignSchema) } } },
    async (request) => {
      const id = await createCampaign(ctx.db, request.body, principal(request));
      const campaign = await getCampaign(ctx.db, id);
      await ctx.audit(request, {
        action: 'ota.campaign.create',
        result: 'success',
        targetType: 'campaign',
        targetId: id,
        targetName: campaign.name,
        detail: { artifactId: campaign.artifactId, version: campaign.version, total: campaign.total, phases: campaign.phases, target: { type: campaign.target.type } },
      });
      await engine.nudge(id);
      return ok(request, campaign);
    },
  );

  r.post(
    '/api/admin/ota/campaign/:id/:action',
    { preHandler: ctx.guard('campaignControl'), schema: { ...secured, params: actionParams, response: { 200: envelopeSchema(campaignSchema) } } },
    async (request) => {
      const { id, action } = request.params;
      const { before, after } = await changeCampaign(ctx.db, id, action);
      await ctx.audit(request, {
        action: `ota.campaign.${action}`,
        result: 'success',
        targetType: 'campaign',
        targetId: id,
        targetName: after.name,
        detail: { from: before.status, to: after.status },
      });
      if (action === 'resume') await engine.nudge(id);
      return ok(request, after);
    },
  );

  r.get(
    '/api/admin/device/upgrade-log',
    { preHandler: ctx.guard('firmware'), schema: { ...secured, querystring: upgradeLogQuerySchema, response: { 200: envelopeSchema(pageSchema(upgradeRecordSchema)) } } },
    async (request) => ok(request, await listUpgradeLog(ctx.db, request.query)),
  );

  r.get(
    '/api/admin/device/upgrade-log/export',
    { preHandler: ctx.guard('firmware'), schema: { ...secured, querystring: upgradeLogExportQuerySchema } },
    async (request, reply) => {
      await ctx.audit(request, { action: 'ota.upgrade-log.export', result: 'success', targetType: 'upgrade-log', detail: { filter: request.query } });
      const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
      reply.type('text/csv; charset=utf-8').header('Content-Disposition', `attachment; filename="upgrade-log-${stamp}.csv"`);
      return reply.send(exportUpgradeLog(ctx.db, request.query));
    },
  );

  r.get(
    '/api/admin/device/:sn/upgrade-history',
    { preHandler: ctx.guard('firmware'), schema: { ...secured, params: snParams, response: { 200: envelopeSchema(z.array(upgradeRecordSchema)) } } },
    async (request) => {
      const history = await deviceUpgradeHistory(ctx.db, request.params.sn);
      if (history.length === 0) await assertDeviceExists(ctx, request.params.sn);
      return ok(request, history);
    },
  );
}

async function assertDeviceExists(ctx: AppContext, sn: string) {
  const [row] = await ctx.db.select({ sn: devices.sn }).from(devices).where(eq(devices.sn, sn)).limit(1);
  if (!row) throw new AppError('SN_NOT_FOUND', { sn });
}
