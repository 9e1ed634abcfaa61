ALTER TABLE "app_versions" ADD COLUMN "withdrawn_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "app_versions" ADD COLUMN "withdrawn_by_name" text DEFAULT '' NOT NULL;