ALTER TABLE "device_state" ADD COLUMN "telemetry_received_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "telemetry_history" ADD COLUMN "device_ts" timestamp with time zone;