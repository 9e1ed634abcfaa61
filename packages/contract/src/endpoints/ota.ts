import { z } from 'zod';
import { idParam, pageSchema } from '../envelope.ts';
import { endpoint, staff } from '../endpoint.ts';
import { snSchema } from '../device-protocol.ts';
import {
  campaignCreateBodySchema,
  campaignListQuerySchema,
  campaignPreviewSchema,
  campaignSchema,
  upgradeLogExportQuerySchema,
  upgradeLogQuerySchema,
  upgradeRecordSchema,
  type CampaignAction,
} from '../firmware.ts';

const tag = 'ota';
const idParams = z.object({ id: idParam }).strict();

/** POST /api/admin/ota/campaign/:id/<action>: each action its own endpoint, so each its own audit action. */
function campaignAction<const A extends CampaignAction>(action: A) {
  return endpoint({
    method: 'POST',
    path: `/api/admin/ota/campaign/:id/${action}`,
    access: staff('campaignControl'),
    tag,
    params: idParams,
    response: campaignSchema,
    errors: ['CAMPAIGN_NOT_FOUND', 'CAMPAIGN_STATE', 'CONFLICT'],
    audit: `ota.campaign.${action}`,
    // Resuming sends firmware to devices again: as dangerous as creating the campaign.
    stepUp: action === 'resume',
  });
}

/** Campaigns run by the OTA engine, and the upgrade log (`/device/upgrade-log`). */
export const otaApi = {
  listCampaigns: endpoint({ method: 'GET', path: '/api/admin/ota/campaign', access: staff('firmware'), tag, query: campaignListQuerySchema, response: pageSchema(campaignSchema) }),
  getCampaign: endpoint({ method: 'GET', path: '/api/admin/ota/campaign/:id', access: staff('firmware'), tag, params: idParams, response: campaignSchema, errors: ['CAMPAIGN_NOT_FOUND'] }),
  createCampaign: endpoint({
    method: 'POST',
    path: '/api/admin/ota/campaign',
    access: staff('campaignControl'),
    tag,
    summary: 'Roll a released artifact out to a target in phases; CAMPAIGN_BAD_SNS carries the unknown and other-model SNs',
    body: campaignCreateBodySchema,
    response: campaignSchema,
    errors: ['ARTIFACT_NOT_FOUND', 'ARTIFACT_NOT_RELEASED', 'CAMPAIGN_NO_TARGETS', 'CAMPAIGN_BAD_SNS', 'CAMPAIGN_VERSION_RANGE', 'GROUP_NOT_FOUND'],
    audit: 'ota.campaign.create',
    stepUp: true,
  }),
  previewCampaign: endpoint({
    method: 'POST',
    path: '/api/admin/ota/campaign/preview',
    access: staff('campaignControl'),
    tag,
    summary: 'How many target devices a campaign with this body would update, and how many it would skip and why; creates nothing',
    body: campaignCreateBodySchema,
    response: campaignPreviewSchema,
    errors: ['ARTIFACT_NOT_FOUND', 'ARTIFACT_NOT_RELEASED', 'CAMPAIGN_BAD_SNS', 'CAMPAIGN_VERSION_RANGE', 'GROUP_NOT_FOUND'],
  }),
  pauseCampaign: campaignAction('pause'),
  resumeCampaign: campaignAction('resume'),
  cancelCampaign: campaignAction('cancel'),
  upgradeLog: endpoint({ method: 'GET', path: '/api/admin/device/upgrade-log', access: staff('firmware'), tag, query: upgradeLogQuerySchema, response: pageSchema(upgradeRecordSchema) }),
  exportUpgradeLog: endpoint({
    method: 'GET',
    path: '/api/admin/device/upgrade-log/export',
    access: staff('firmware'),
    tag,
    summary: 'The filtered upgrade log as CSV',
    query: upgradeLogExportQuerySchema,
    produces: 'text/csv',
    audit: 'ota.upgrade-log.export',
  }),
  deviceUpgradeHistory: endpoint({
    method: 'GET',
    path: '/api/admin/device/:sn/upgrade-history',
    access: staff('firmware'),
    tag,
    summary: "A device's upgrades, newest first",
    params: z.object({ sn: snSchema }).strict(),
    response: z.array(upgradeRecordSchema),
    errors: ['SN_NOT_FOUND'],
  }),
};
