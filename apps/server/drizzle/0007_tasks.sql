CREATE TABLE "task_device_sync" (
	"sn" text COLLATE "C" PRIMARY KEY NOT NULL,
	"revision" integer DEFAULT 0 NOT NULL,
	"applied_revision" integer DEFAULT 0 NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"error" text,
	"sent_at" timestamp with time zone,
	"applied_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "task_rollups" (
	"bucket" timestamp with time zone NOT NULL,
	"model_code" text NOT NULL,
	"firmware" text NOT NULL,
	"runs" integer DEFAULT 0 NOT NULL,
	"ended" integer DEFAULT 0 NOT NULL,
	"completed" integer DEFAULT 0 NOT NULL,
	"interrupted" integer DEFAULT 0 NOT NULL,
	"user_ended" integer DEFAULT 0 NOT NULL,
	"faults" integer DEFAULT 0 NOT NULL,
	"area_m2" double precision DEFAULT 0 NOT NULL,
	"duration_s" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "task_rollups_bucket_model_code_firmware_pk" PRIMARY KEY("bucket","model_code","firmware")
);
--> statement-breakpoint
CREATE TABLE "task_run_events" (
	"run_pk" integer NOT NULL,
	"seq" integer NOT NULL,
	"type" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "task_run_events_run_pk_seq_pk" PRIMARY KEY("run_pk","seq")
);
--> statement-breakpoint
CREATE TABLE "task_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"sn" text COLLATE "C" NOT NULL,
	"run_id" text NOT NULL,
	"model_code" text NOT NULL,
	"firmware" text NOT NULL,
	"owner" text DEFAULT '' NOT NULL,
	"trigger" text,
	"schedule_id" integer,
	"schedule_name" text,
	"status" text NOT NULL,
	"result" text,
	"fault_code" text,
	"zones" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"planned_area_m2" real,
	"progress_percent" real DEFAULT 0 NOT NULL,
	"area_m2" real DEFAULT 0 NOT NULL,
	"duration_s" integer DEFAULT 0 NOT NULL,
	"blade_on_s" integer DEFAULT 0 NOT NULL,
	"distance_m" real DEFAULT 0 NOT NULL,
	"pauses" integer DEFAULT 0 NOT NULL,
	"resumes_run_id" text,
	"resumes_id" integer,
	"path" text DEFAULT '' NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"last_report_at" timestamp with time zone NOT NULL,
	"last_seq" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "task_schedules" (
	"id" serial PRIMARY KEY NOT NULL,
	"sn" text COLLATE "C" NOT NULL,
	"name" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"slots" jsonb NOT NULL,
	"zones" jsonb NOT NULL,
	"cutting" jsonb NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"config_revision" integer NOT NULL,
	"updated_by_kind" text NOT NULL,
	"updated_by_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "task_zones" (
	"sn" text COLLATE "C" NOT NULL,
	"zone_id" text NOT NULL,
	"name" text NOT NULL,
	"polygon" jsonb NOT NULL,
	"area_m2" real NOT NULL,
	"reported_at" timestamp with time zone NOT NULL,
	"last_mowed_at" timestamp with time zone,
	"last_run_id" integer,
	"last_run_result" text,
	"last_run_at" timestamp with time zone,
	CONSTRAINT "task_zones_sn_zone_id_pk" PRIMARY KEY("sn","zone_id")
);
--> statement-breakpoint
ALTER TABLE "task_device_sync" ADD CONSTRAINT "task_device_sync_sn_devices_sn_fk" FOREIGN KEY ("sn") REFERENCES "public"."devices"("sn") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_run_events" ADD CONSTRAINT "task_run_events_run_pk_task_runs_id_fk" FOREIGN KEY ("run_pk") REFERENCES "public"."task_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_schedules" ADD CONSTRAINT "task_schedules_sn_devices_sn_fk" FOREIGN KEY ("sn") REFERENCES "public"."devices"("sn") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_zones" ADD CONSTRAINT "task_zones_sn_devices_sn_fk" FOREIGN KEY ("sn") REFERENCES "public"."devices"("sn") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "task_device_sync_unapplied" ON "task_device_sync" USING btree ("sent_at") WHERE "task_device_sync"."state" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "task_runs_sn_run" ON "task_runs" USING btree ("sn","run_id");--> statement-breakpoint
CREATE INDEX "task_runs_started" ON "task_runs" USING btree ("started_at","id");--> statement-breakpoint
CREATE INDEX "task_runs_sn_started" ON "task_runs" USING btree ("sn","started_at","id");--> statement-breakpoint
CREATE INDEX "task_runs_fault_started" ON "task_runs" USING btree ("fault_code","started_at","id") WHERE "task_runs"."fault_code" is not null;--> statement-breakpoint
CREATE INDEX "task_runs_owner_started" ON "task_runs" USING btree ("owner","started_at","id") WHERE "task_runs"."owner" <> '';--> statement-breakpoint
CREATE INDEX "task_runs_open" ON "task_runs" USING btree ("last_report_at") WHERE "task_runs"."status" <> 'ended';--> statement-breakpoint
CREATE INDEX "task_runs_resumes" ON "task_runs" USING btree ("resumes_id") WHERE "task_runs"."resumes_id" is not null;--> statement-breakpoint
CREATE INDEX "task_schedules_sn" ON "task_schedules" USING btree ("sn","id");