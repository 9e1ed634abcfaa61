ALTER TABLE "ota_campaigns" ADD COLUMN "soak_seconds" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ota_campaigns" ADD COLUMN "success_threshold_percent" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ota_campaigns" ADD COLUMN "phase_settled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "ota_campaigns" ADD COLUMN "wait_reason" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "ota_campaigns" ADD COLUMN "wait_until" timestamp with time zone;