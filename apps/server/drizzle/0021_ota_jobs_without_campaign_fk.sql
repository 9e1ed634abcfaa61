ALTER TABLE "ota_jobs" DROP CONSTRAINT "ota_jobs_campaign_id_ota_campaigns_id_fk";
