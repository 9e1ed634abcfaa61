ALTER TABLE "product_models" ADD COLUMN "telemetry_rate" double precision;--> statement-breakpoint
ALTER TABLE "product_models" ADD COLUMN "telemetry_burst" integer;--> statement-breakpoint
ALTER TABLE "product_models" ADD COLUMN "events_per_hour" integer;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "flagged_at" timestamp with time zone;--> statement-breakpoint
CREATE TABLE "device_ingest_drops" (
	"sn" text COLLATE "C" PRIMARY KEY NOT NULL,
	"telemetry" bigint DEFAULT 0 NOT NULL,
	"events" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
ALTER TABLE "device_ingest_drops" ADD CONSTRAINT "device_ingest_drops_sn_devices_sn_fk" FOREIGN KEY ("sn") REFERENCES "public"."devices"("sn") ON DELETE cascade ON UPDATE no action;
