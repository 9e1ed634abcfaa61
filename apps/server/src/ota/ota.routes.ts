import type { FastifyInstance } from 'fastify';
import { otaApi, type CampaignAction } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { principal } from '../http/auth.ts';
import { serve, type HandlerInput } from '../http/endpoints.ts';
import { changeCampaign, createCampaign, getCampaign, listCampaigns, previewCampaign } from './campaign.service.ts';
import type { OtaEngine } from './engine.ts';
import { deviceUpgradeHistory, exportUpgradeLog, listUpgradeLog } from './upgrade-log.service.ts';

/** OTA: campaigns run by the engine (nudged when one is created or resumed), the upgrade log. */
export function otaRoutes(app: FastifyInstance, ctx: AppContext, engine: OtaEngine) {
  /** pause / resume / cancel: the same call, audited under its own action. */
  const change =
    (action: CampaignAction) =>
    async ({ params, audit }: Pick<HandlerInput<typeof otaApi.pauseCampaign>, 'params' | 'audit'>) => {
      audit({ targetType: 'campaign', targetId: params.id });
      const { before, after } = await changeCampaign(ctx.db, params.id, action);
      audit({ targetName: after.name, detail: { from: before.status, to: after.status } });
      if (action === 'resume') await engine.nudge(params.id);
      return after;
    };

  serve(app, ctx, otaApi, {
    listCampaigns: ({ query }) => listCampaigns(ctx.db, query),

    getCampaign: ({ params }) => getCampaign(ctx.db, params.id),

    createCampaign: async ({ body, request, audit }) => {
      audit({ targetType: 'campaign' });
      const id = await createCampaign(ctx.db, body, principal(request));
      const campaign = await getCampaign(ctx.db, id);
      audit({
        targetId: id,
        targetName: campaign.name,
        detail: { artifactId: campaign.artifactId, version: campaign.version, total: campaign.total, phases: campaign.phases, target: { type: campaign.target.type } },
      });
      await engine.nudge(id);
      return campaign;
    },

    previewCampaign: ({ body }) => previewCampaign(ctx.db, body),

    pauseCampaign: change('pause'),
    resumeCampaign: change('resume'),
    cancelCampaign: change('cancel'),

    upgradeLog: ({ query }) => listUpgradeLog(ctx.db, query),

    exportUpgradeLog: async ({ query, reply, audit }) => {
      audit({ targetType: 'upgrade-log', detail: { filter: query } });
      const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
      reply.type('text/csv; charset=utf-8').header('Content-Disposition', `attachment; filename="upgrade-log-${stamp}.csv"`);
      return reply.send(exportUpgradeLog(ctx.db, query));
    },

    deviceUpgradeHistory: ({ params }) => deviceUpgradeHistory(ctx.db, params.sn),
  });
}
