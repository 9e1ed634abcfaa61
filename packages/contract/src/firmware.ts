import { z } from 'zod';
import { idParam, idSchema, isoTimeQuery, pageQuerySchema } from './envelope.ts';
import { firmwareVersionSchema, snSchema } from './device-protocol.ts';
import { artifactKinds, otaJobStates, otaReasons } from './ota.ts';

/*
 * Firmware and voice-pack artifacts, OTA campaigns, the upgrade log and app versions
 * (spec routes /product/firmware, /product/voice-version, /device/upgrade-log, /product/app-change-log).
 */

export const artifactStatuses = ['draft', 'released', 'deprecated'] as const;
export type ArtifactStatus = (typeof artifactStatuses)[number];

/** File names a firmware image or a voice pack may have (checked with the content, see the server). */
export const artifactExtensions = { firmware: ['.bin', '.img', '.fw', '.swu'], voice: ['.zip', '.vpk', '.tar', '.tgz'] } as const;
export const DEFAULT_FIRMWARE_MAX_MB = 512;

const changelog = z.string().trim().max(4000);
const languageSchema = z.string().regex(/^[a-z]{2,3}(-[A-Z]{2})?$/, 'language such as zh-CN or en-US');

export const artifactSchema = z.object({
  id: z.number().int(),
  kind: z.enum(artifactKinds),
  modelId: z.number().int(),
  modelCode: z.string(),
  language: z.string(),
  version: z.string(),
  changelogZh: z.string(),
  changelogEn: z.string(),
  minFromVersion: z.string(),
  status: z.enum(artifactStatuses),
  fileName: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  signature: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
  releasedAt: z.string().nullable(),
});
export type Artifact = z.infer<typeof artifactSchema>;

/**
 * Multipart fields of POST /api/admin/product/firmware (and /voice): sent BEFORE the `file` part so
 * the server checks them before it stores a byte.
 */
export const artifactUploadFieldsSchema = z
  .object({
    modelId: idParam,
    version: firmwareVersionSchema,
    language: z.union([languageSchema, z.literal('')]).default(''),
    changelogZh: changelog.default(''),
    changelogEn: changelog.default(''),
    minFromVersion: z.union([firmwareVersionSchema, z.literal('')]).default(''),
  })
  .strict();
export type ArtifactUploadFields = z.infer<typeof artifactUploadFieldsSchema>;

/** GET /api/admin/product/firmware (and /voice) */
export const artifactListQuerySchema = pageQuerySchema
  .extend({ modelId: idParam.optional(), status: z.enum(artifactStatuses).optional(), language: languageSchema.optional(), version: z.string().max(32).optional() })
  .strict();
export type ArtifactListQuery = z.infer<typeof artifactListQuerySchema>;

/** PUT /api/admin/product/firmware/:id — changelog edits, release, deprecate (never back to draft). */
export const artifactUpdateBodySchema = z
  .object({ status: z.enum(['released', 'deprecated']).optional(), changelogZh: changelog.optional(), changelogEn: changelog.optional() })
  .strict()
  .refine((b) => Object.keys(b).length > 0, 'nothing to change');
export type ArtifactUpdateBody = z.infer<typeof artifactUpdateBodySchema>;

/** GET /api/ota/public-key — the platform's Ed25519 verification key. */
export const otaPublicKeySchema = z.object({ algorithm: z.literal('Ed25519'), publicKeyPem: z.string(), publicKeyRaw: z.string(), fingerprint: z.string() });

// ---------------------------------------------------------------- campaigns

/**
 * A campaign that ends does not always end well: `completed` means every device that had work was
 * updated; `completed_with_failures` that at least one failed; `completed_none` that nobody was
 * updated (every device skipped, say a minimum version above them all).
 */
export const campaignStatuses = ['running', 'paused', 'completed', 'completed_with_failures', 'completed_none', 'cancelled'] as const;
export type CampaignStatus = (typeof campaignStatuses)[number];

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'HH:MM');

/** Groups whose devices a target leaves out (any target type); at most 50. */
const excludeGroupIds = z.array(idSchema).max(50).optional();

export const campaignTargetSchema = z.discriminatedUnion('type', [
  /** Every device of the artifact's model, optionally only those whose firmware is within [min, max]. */
  z.object({ type: z.literal('model'), minVersion: firmwareVersionSchema.optional(), maxVersion: firmwareVersionSchema.optional(), excludeGroupIds }).strict(),
  /** An explicit list (from a CSV file): one SN per line or an `sn` column. */
  z.object({ type: z.literal('sns'), sns: z.array(snSchema).min(1).max(100_000), excludeGroupIds }).strict(),
  /** A device-list filter. */
  z
    .object({
      type: z.literal('filter'),
      sn: z.string().trim().toUpperCase().max(32).optional(),
      region: z.string().trim().toLowerCase().max(32).optional(),
      owner: z.string().trim().max(128).optional(),
      firmware: firmwareVersionSchema.optional(),
      excludeGroupIds,
    })
    .strict(),
  /** The devices of the artifact's model in any of these device groups (as they are when the campaign is created). */
  z.object({ type: z.literal('groups'), groupIds: z.array(idSchema).min(1).max(50), excludeGroupIds }).strict(),
]);
export type CampaignTarget = z.infer<typeof campaignTargetSchema>;

/** POST /api/admin/ota/campaign */
export const campaignCreateBodySchema = z
  .object({
    name: z.string().trim().min(1).max(100),
    artifactId: idSchema,
    target: campaignTargetSchema,
    /** Cumulative share of the targets per phase, ascending, ending at 100. */
    phases: z.array(z.number().int().min(1).max(100)).min(1).max(10).default([1, 10, 50, 100])
      .refine((p) => p.every((v, i) => i === 0 || v > p[i - 1]!) && p[p.length - 1] === 100, 'ascending, ending at 100'),
    ratePerMinute: z.number().int().min(1).max(100_000).default(60),
    /** Pause when failed / finished reaches this percentage, once `abortMinFinished` jobs finished. */
    abortFailurePercent: z.number().int().min(1).max(100).default(10),
    abortMinFinished: z.number().int().min(1).max(100_000).default(10),
    timeoutSeconds: z.number().int().min(10).max(86_400).default(1800),
    retries: z.number().int().min(0).max(10).default(1),
    /**
     * How long a finished phase must stay healthy (no abort, threshold still met) before the next
     * one starts (hawkBit/Mender). 0 = start the next phase at once (the API default, as before).
     */
    soakSeconds: z.number().int().min(0).max(7 * 86_400).default(0),
    /** Share of a phase's devices (skipped ones aside) that must succeed before the next phase; 0 = none required. */
    successThresholdPercent: z.number().int().min(0).max(100).default(0),
    /** Daily window (UTC) in which jobs may start; absent = any time. end < start spans midnight. */
    window: z.object({ start: hhmm, end: hhmm }).strict().nullable().default(null),
  })
  .strict();
export type CampaignCreateBody = z.infer<typeof campaignCreateBodySchema>;

export const campaignCountsSchema = z.partialRecord(z.enum(otaJobStates), z.number().int());
export type CampaignCounts = z.infer<typeof campaignCountsSchema>;

/**
 * What a running campaign is waiting for right now, so the console can say it:
 * - `soak`: the current phase finished and must stay healthy until `until`;
 * - `success_threshold`: the phase has not reached its success share (some devices still offline);
 * - `rate_limit`: the per-minute limit is used up; `window`: outside the maintenance window;
 * - `devices`: jobs are at the devices; `offline`: the remaining devices of the phase are offline.
 */
export const campaignWaitReasons = ['soak', 'success_threshold', 'rate_limit', 'window', 'devices', 'offline'] as const;
export type CampaignWaitReason = (typeof campaignWaitReasons)[number];
export const campaignWaitSchema = z.object({ reason: z.enum(campaignWaitReasons), until: z.string().nullable() });

export const campaignSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  artifactId: z.number().int(),
  kind: z.enum(artifactKinds),
  modelCode: z.string(),
  version: z.string(),
  status: z.enum(campaignStatuses),
  pauseReason: z.string(),
  target: campaignTargetSchema,
  phases: z.array(z.number().int()),
  phaseIndex: z.number().int(),
  ratePerMinute: z.number().int(),
  abortFailurePercent: z.number().int(),
  abortMinFinished: z.number().int(),
  timeoutSeconds: z.number().int(),
  retries: z.number().int(),
  soakSeconds: z.number().int(),
  successThresholdPercent: z.number().int(),
  window: z.object({ start: z.string(), end: z.string() }).nullable(),
  total: z.number().int(),
  counts: campaignCountsSchema,
  /** Running only: what the rollout waits for (null when it is simply sending). */
  waiting: campaignWaitSchema.nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type Campaign = z.infer<typeof campaignSchema>;

/** GET /api/admin/ota/campaign */
export const campaignListQuerySchema = pageQuerySchema
  .extend({ status: z.enum(campaignStatuses).optional(), kind: z.enum(artifactKinds).optional() })
  .strict();

/**
 * POST /api/admin/ota/campaign/preview: what a campaign with this body would do, before it exists.
 * `willUpdate` devices get a job; `skipped` counts the others by the reason they would be skipped.
 */
export const campaignPreviewSchema = z.object({
  total: z.number().int(),
  willUpdate: z.number().int(),
  skipped: z.partialRecord(z.enum(otaReasons), z.number().int()),
  /** Of `willUpdate`, how many are offline now (they are sent the update when they come online). */
  offline: z.number().int(),
});
export type CampaignPreview = z.infer<typeof campaignPreviewSchema>;

/** POST /api/admin/ota/campaign/:id/pause | resume | cancel */
export const campaignActions = ['pause', 'resume', 'cancel'] as const;
export type CampaignAction = (typeof campaignActions)[number];

/** Data of the CAMPAIGN_BAD_SNS error: each unknown or wrong-model SN (first 500 of each). */
export const campaignTargetReportSchema = z.object({ unknown: z.array(z.string()), otherModel: z.array(z.string()) });
export type CampaignTargetReport = z.infer<typeof campaignTargetReportSchema>;

// ---------------------------------------------------------------- upgrade log

export const jobHistoryEntrySchema = z.object({
  state: z.enum(otaJobStates),
  at: z.string(),
  attempt: z.number().int(),
  progress: z.number().int().optional(),
  reason: z.string().optional(),
});
export type JobHistoryEntry = z.infer<typeof jobHistoryEntrySchema>;

export const upgradeRecordSchema = z.object({
  id: z.number().int(),
  campaignId: z.number().int(),
  campaignName: z.string(),
  kind: z.enum(artifactKinds),
  sn: z.string(),
  fromVersion: z.string(),
  toVersion: z.string(),
  state: z.enum(otaJobStates),
  progress: z.number().int(),
  reason: z.string(),
  retries: z.number().int(),
  history: z.array(jobHistoryEntrySchema),
  createdAt: z.string(),
  updatedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type UpgradeRecord = z.infer<typeof upgradeRecordSchema>;

/** Filters of GET /api/admin/device/upgrade-log and its CSV export. */
export const upgradeLogFilterSchema = z.object({
  sn: z.string().trim().toUpperCase().max(32).optional(),
  campaignId: idParam.optional(),
  state: z.enum(otaJobStates).optional(),
  kind: z.enum(artifactKinds).optional(),
  reason: z.enum(otaReasons).optional(),
  from: isoTimeQuery,
  to: isoTimeQuery,
});
export const upgradeLogQuerySchema = upgradeLogFilterSchema.extend(pageQuerySchema.shape).strict();
export type UpgradeLogQuery = z.infer<typeof upgradeLogQuerySchema>;
export const upgradeLogExportQuerySchema = upgradeLogFilterSchema.strict();

// ---------------------------------------------------------------- app versions

export const appPlatforms = ['ios', 'android'] as const;
export type AppPlatform = (typeof appPlatforms)[number];

export const appVersionSchema = z.object({
  id: z.number().int(),
  platform: z.enum(appPlatforms),
  version: z.string(),
  build: z.number().int(),
  changelogZh: z.string(),
  changelogEn: z.string(),
  forceUpdate: z.boolean(),
  minSupportedVersion: z.string(),
  downloadUrl: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
  /** When it was withdrawn (no longer offered to the app), and by whom; null while offered. */
  withdrawnAt: z.string().nullable(),
  withdrawnBy: z.string(),
});
export type AppVersion = z.infer<typeof appVersionSchema>;

/** POST /api/admin/product/app-version */
export const appVersionCreateBodySchema = z
  .object({
    platform: z.enum(appPlatforms),
    version: firmwareVersionSchema,
    build: z.number().int().min(1).max(2_000_000_000),
    changelogZh: changelog.default(''),
    changelogEn: changelog.default(''),
    forceUpdate: z.boolean().default(false),
    minSupportedVersion: z.union([firmwareVersionSchema, z.literal('')]).default(''),
    downloadUrl: z.union([z.url({ protocol: /^https?$/ }).max(1024), z.literal('')]).default(''),
  })
  .strict();
export type AppVersionCreateBody = z.infer<typeof appVersionCreateBodySchema>;

/** PUT /api/admin/product/app-version/:id */
export const appVersionUpdateBodySchema = appVersionCreateBodySchema
  .pick({ changelogZh: true, changelogEn: true, forceUpdate: true, minSupportedVersion: true, downloadUrl: true })
  .partial()
  .strict()
  .refine((b) => Object.keys(b).length > 0, 'nothing to change');

/** GET /api/admin/product/app-version */
export const appVersionListQuerySchema = pageQuerySchema.extend({ platform: z.enum(appPlatforms).optional() }).strict();

/** GET /api/app/v1/app-version/latest?platform=&version= (public: the app asks before sign-in). */
export const appLatestQuerySchema = z.object({ platform: z.enum(appPlatforms), version: firmwareVersionSchema }).strict();
export const appLatestSchema = z.object({
  latest: appVersionSchema.omit({ createdBy: true, withdrawnAt: true, withdrawnBy: true }).nullable(),
  updateAvailable: z.boolean(),
  /** The running version is below the minimum supported one, or a newer release is marked force-update. */
  forceUpdate: z.boolean(),
  /** The changelog of `latest` in the caller's language. */
  changelog: z.string(),
});
export type AppLatest = z.infer<typeof appLatestSchema>;
