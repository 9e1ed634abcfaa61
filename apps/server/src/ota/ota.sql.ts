import { sql } from 'drizzle-orm';
import { bigserial, index, integer, jsonb, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { CampaignStatus, CampaignTarget, CampaignWaitReason, JobHistoryEntry, OtaJobState } from '@mowerline/contract';
import { byteOrderText, snText } from '../devices/devices.sql.ts';
import { otaArtifacts } from '../firmware/firmware.sql.ts';

/** A rollout of one artifact to a set of devices, in phases, under a rate limit and an abort threshold. */
export const otaCampaigns = pgTable(
  'ota_campaigns',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    artifactId: integer('artifact_id')
      .notNull()
      .references(() => otaArtifacts.id),
    status: text('status').$type<CampaignStatus>().notNull().default('running'),
    pauseReason: text('pause_reason').notNull().default(''),
    target: jsonb('target').$type<CampaignTarget>().notNull(),
    phases: jsonb('phases').$type<number[]>().notNull(),
    phaseIndex: integer('phase_index').notNull().default(0),
    ratePerMinute: integer('rate_per_minute').notNull(),
    abortFailurePercent: integer('abort_failure_percent').notNull(),
    abortMinFinished: integer('abort_min_finished').notNull(),
    /** Failed/finished counts when last resumed: the threshold judges what happened since. */
    abortBaseFailed: integer('abort_base_failed').notNull().default(0),
    abortBaseFinished: integer('abort_base_finished').notNull().default(0),
    timeoutSeconds: integer('timeout_seconds').notNull(),
    retries: integer('retries').notNull(),
    /** Seconds a finished phase must stay healthy before the next starts; 0 = at once. */
    soakSeconds: integer('soak_seconds').notNull().default(0),
    /** % of a phase's devices (skipped aside) that must succeed before the next phase; 0 = none. */
    successThresholdPercent: integer('success_threshold_percent').notNull().default(0),
    /** When the current phase last had nothing left to do: its soak time counts from here. */
    phaseSettledAt: timestamp('phase_settled_at', { withTimezone: true }),
    /** What the last tick found the rollout waiting for ('' = nothing), and until when if known. */
    waitReason: text('wait_reason').$type<CampaignWaitReason | ''>().notNull().default(''),
    waitUntil: timestamp('wait_until', { withTimezone: true }),
    window: jsonb('window').$type<{ start: string; end: string } | null>(),
    total: integer('total').notNull(),
    createdBy: integer('created_by'),
    createdByName: text('created_by_name').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('ota_campaigns_status').on(t.status, t.id)],
);
export type OtaCampaignRow = typeof otaCampaigns.$inferSelect;

/**
 * One device in one campaign: the truth the engine works from (a restart re-reads it) and the
 * upgrade log's record. Every step is an UPDATE guarded by the current state, so a step that runs
 * twice changes nothing the second time.
 */
export const otaJobs = pgTable(
  'ota_jobs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /**
     * No foreign key: its per-row check was a tenth of writing a million jobs, and it
     * guards nothing here. Jobs are only written by createCampaign, in the transaction that inserts
     * their campaign, and campaigns are never deleted (they end as cancelled or completed).
     */
    campaignId: integer('campaign_id').notNull(),
    /** Byte order, as `devices.sn`: the SN and state indexes take a million inserts at campaign creation, and a byte comparison is the cheap one. */
    sn: snText('sn').notNull(),
    /** Random position in the rollout: phase k covers ordinals below ceil(total × phases[k] / 100). */
    ordinal: integer('ordinal').notNull(),
    state: byteOrderText('state').$type<OtaJobState>().notNull().default('QUEUED'),
    /** 0 on the first try; a retry increments it. */
    attempt: integer('attempt').notNull().default(0),
    /** Id of the current attempt's command; progress reports name it. */
    jobKey: text('job_key'),
    fromVersion: text('from_version').notNull().default(''),
    toVersion: text('to_version').notNull(),
    progress: smallint('progress').notNull().default(0),
    reason: text('reason').notNull().default(''),
    history: jsonb('history').$type<JobHistoryEntry[]>().notNull().default(sql`'[]'::jsonb`),
    dispatchedAt: timestamp('dispatched_at', { withTimezone: true }),
    deadline: timestamp('deadline', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('ota_jobs_campaign_sn').on(t.campaignId, t.sn),
    // Partial: a queued job has no key and no dispatch time yet, so creating a million jobs writes neither index.
    uniqueIndex('ota_jobs_key').on(t.jobKey).where(sql`${t.jobKey} is not null`),
    index('ota_jobs_campaign_state_ordinal').on(t.campaignId, t.state, t.ordinal),
    index('ota_jobs_sn_id').on(t.sn, t.id),
    index('ota_jobs_updated').on(t.updatedAt, t.id),
    index('ota_jobs_dispatched').on(t.campaignId, t.dispatchedAt).where(sql`${t.dispatchedAt} is not null`),
  ],
);
export type OtaJobRow = typeof otaJobs.$inferSelect;
