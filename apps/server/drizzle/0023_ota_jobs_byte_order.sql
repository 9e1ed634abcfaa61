ALTER TABLE "ota_jobs" ALTER COLUMN "sn" SET DATA TYPE text COLLATE "C";--> statement-breakpoint
ALTER TABLE "ota_jobs" ALTER COLUMN "state" SET DATA TYPE text COLLATE "C";--> statement-breakpoint
ALTER TABLE "ota_jobs" ALTER COLUMN "state" SET DEFAULT 'QUEUED';