CREATE TABLE "app_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"platform" text NOT NULL,
	"version" text NOT NULL,
	"build" integer NOT NULL,
	"changelog_zh" text DEFAULT '' NOT NULL,
	"changelog_en" text DEFAULT '' NOT NULL,
	"force_update" boolean DEFAULT false NOT NULL,
	"min_supported_version" text DEFAULT '' NOT NULL,
	"download_url" text DEFAULT '' NOT NULL,
	"created_by" integer,
	"created_by_name" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "captchas" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"answer" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "login_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"ip" text NOT NULL,
	"success" boolean NOT NULL,
	"reason" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "password_resets" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"remember" boolean DEFAULT false NOT NULL,
	"ip" text DEFAULT '' NOT NULL,
	"user_agent" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"sn" text NOT NULL,
	"code" text NOT NULL,
	"severity" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"context" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"occurrences" integer DEFAULT 1 NOT NULL,
	"last_device_event_id" text DEFAULT '' NOT NULL,
	"first_at" timestamp with time zone NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	"ack_by" integer,
	"ack_by_name" text,
	"ack_at" timestamp with time zone,
	"ack_comment" text DEFAULT '' NOT NULL,
	"cleared_by" integer,
	"cleared_by_name" text,
	"cleared_at" timestamp with time zone,
	"clear_comment" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_online_samples" (
	"at" timestamp with time zone PRIMARY KEY NOT NULL,
	"online" integer NOT NULL,
	"total" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_state" (
	"sn" text PRIMARY KEY NOT NULL,
	"online" boolean DEFAULT false NOT NULL,
	"online_changed_at" timestamp with time zone,
	"conn_id" text DEFAULT '' NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT '1970-01-01T00:00:00Z' NOT NULL,
	"telemetry_at" timestamp with time zone,
	"state" text DEFAULT 'idle' NOT NULL,
	"activity" text DEFAULT 'unknown' NOT NULL,
	"error_code" text,
	"battery" smallint DEFAULT -1 NOT NULL,
	"lat" double precision,
	"lng" double precision,
	"heading" real,
	"blade_rpm" integer,
	"rssi" smallint,
	"firmware" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"sn" text PRIMARY KEY NOT NULL,
	"model_id" integer NOT NULL,
	"secret_hash" text NOT NULL,
	"secret_salt" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"region" text DEFAULT '' NOT NULL,
	"owner" text DEFAULT '' NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"secret_rotated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "telemetry_history" (
	"sn" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"state" text NOT NULL,
	"activity" text NOT NULL,
	"error_code" text,
	"battery" smallint NOT NULL,
	"lat" double precision,
	"lng" double precision,
	"heading" real,
	"blade_rpm" integer NOT NULL,
	"rssi" smallint NOT NULL,
	"firmware" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "email_logs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"to" text NOT NULL,
	"subject" text NOT NULL,
	"template" text NOT NULL,
	"status" text NOT NULL,
	"error" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "ota_artifacts" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"model_id" integer NOT NULL,
	"language" text DEFAULT '' NOT NULL,
	"version" text NOT NULL,
	"changelog_zh" text DEFAULT '' NOT NULL,
	"changelog_en" text DEFAULT '' NOT NULL,
	"min_from_version" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"file_name" text NOT NULL,
	"file_path" text NOT NULL,
	"size" bigint NOT NULL,
	"sha256" text NOT NULL,
	"signature" text NOT NULL,
	"created_by" integer,
	"created_by_name" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"released_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"type" text NOT NULL,
	"kind" smallint NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ota_campaigns" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"artifact_id" integer NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"pause_reason" text DEFAULT '' NOT NULL,
	"target" jsonb NOT NULL,
	"phases" jsonb NOT NULL,
	"phase_index" integer DEFAULT 0 NOT NULL,
	"rate_per_minute" integer NOT NULL,
	"abort_failure_percent" integer NOT NULL,
	"abort_min_finished" integer NOT NULL,
	"abort_base_failed" integer DEFAULT 0 NOT NULL,
	"abort_base_finished" integer DEFAULT 0 NOT NULL,
	"timeout_seconds" integer NOT NULL,
	"retries" integer NOT NULL,
	"window" jsonb,
	"total" integer NOT NULL,
	"created_by" integer,
	"created_by_name" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "ota_jobs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"campaign_id" integer NOT NULL,
	"sn" text NOT NULL,
	"ordinal" integer NOT NULL,
	"state" text DEFAULT 'QUEUED' NOT NULL,
	"attempt" integer DEFAULT 0 NOT NULL,
	"job_key" text,
	"from_version" text DEFAULT '' NOT NULL,
	"to_version" text NOT NULL,
	"progress" smallint DEFAULT 0 NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"history" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"dispatched_at" timestamp with time zone,
	"deadline" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "product_models" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shell_records" (
	"session_id" text NOT NULL,
	"seq" integer NOT NULL,
	"at_ms" integer NOT NULL,
	"kind" text NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "shell_records_session_id_seq_pk" PRIMARY KEY("session_id","seq")
);
--> statement-breakpoint
CREATE TABLE "shell_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"sn" text NOT NULL,
	"staff_id" integer NOT NULL,
	"staff_name" text NOT NULL,
	"node_id" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	"close_reason" text,
	"close_message" text DEFAULT '' NOT NULL,
	"cols" smallint NOT NULL,
	"rows" smallint NOT NULL,
	"bytes_in" bigint DEFAULT 0 NOT NULL,
	"bytes_out" bigint DEFAULT 0 NOT NULL,
	"recorded_bytes" bigint DEFAULT 0 NOT NULL,
	"record_truncated" boolean DEFAULT false NOT NULL,
	"ip" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "staff_users" (
	"id" serial PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"password_hash" text NOT NULL,
	"name" text NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"role" text DEFAULT 'user' NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"avatar" text DEFAULT '' NOT NULL,
	"job" text DEFAULT '' NOT NULL,
	"organization" text DEFAULT '' NOT NULL,
	"location" text DEFAULT '' NOT NULL,
	"introduction" text DEFAULT '' NOT NULL,
	"personal_website" text DEFAULT '' NOT NULL,
	"request_reason" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_login_at" timestamp with time zone,
	"password_changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "system_logs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" integer,
	"actor_name" text NOT NULL,
	"action" text NOT NULL,
	"target_type" text DEFAULT '' NOT NULL,
	"target_id" text DEFAULT '' NOT NULL,
	"target_name" text DEFAULT '' NOT NULL,
	"ip" text DEFAULT '' NOT NULL,
	"user_agent" text DEFAULT '' NOT NULL,
	"result" text NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "password_resets" ADD CONSTRAINT "password_resets_user_id_staff_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."staff_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_staff_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."staff_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_events" ADD CONSTRAINT "device_events_sn_devices_sn_fk" FOREIGN KEY ("sn") REFERENCES "public"."devices"("sn") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_state" ADD CONSTRAINT "device_state_sn_devices_sn_fk" FOREIGN KEY ("sn") REFERENCES "public"."devices"("sn") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_model_id_product_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."product_models"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ota_artifacts" ADD CONSTRAINT "ota_artifacts_model_id_product_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."product_models"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_user_id_staff_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."staff_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ota_campaigns" ADD CONSTRAINT "ota_campaigns_artifact_id_ota_artifacts_id_fk" FOREIGN KEY ("artifact_id") REFERENCES "public"."ota_artifacts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ota_jobs" ADD CONSTRAINT "ota_jobs_campaign_id_ota_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."ota_campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shell_records" ADD CONSTRAINT "shell_records_session_id_shell_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."shell_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "app_versions_platform_build" ON "app_versions" USING btree ("platform","build");--> statement-breakpoint
CREATE INDEX "app_versions_platform_created" ON "app_versions" USING btree ("platform","created_at");--> statement-breakpoint
CREATE INDEX "login_attempts_username_at" ON "login_attempts" USING btree ("username","at");--> statement-breakpoint
CREATE INDEX "login_attempts_ip_at" ON "login_attempts" USING btree ("ip","at");--> statement-breakpoint
CREATE INDEX "password_resets_user" ON "password_resets" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_user" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "device_events_last" ON "device_events" USING btree ("last_at");--> statement-breakpoint
CREATE INDEX "device_events_sn_last" ON "device_events" USING btree ("sn","last_at");--> statement-breakpoint
CREATE INDEX "device_events_status_last" ON "device_events" USING btree ("status","last_at");--> statement-breakpoint
CREATE INDEX "device_events_code_last" ON "device_events" USING btree ("code","last_at");--> statement-breakpoint
CREATE INDEX "device_events_severity_last" ON "device_events" USING btree ("severity","last_at");--> statement-breakpoint
CREATE UNIQUE INDEX "device_events_open_sn_code" ON "device_events" USING btree ("sn","code") WHERE "device_events"."status" <> 'cleared';--> statement-breakpoint
CREATE INDEX "device_state_seen_sn" ON "device_state" USING btree ("last_seen_at","sn");--> statement-breakpoint
CREATE INDEX "device_state_battery_sn" ON "device_state" USING btree ("battery","sn");--> statement-breakpoint
CREATE INDEX "device_state_firmware_sn" ON "device_state" USING btree ("firmware","sn");--> statement-breakpoint
CREATE INDEX "device_state_state_sn" ON "device_state" USING btree ("state","sn");--> statement-breakpoint
CREATE INDEX "device_state_online_seen" ON "device_state" USING btree ("last_seen_at") WHERE "device_state"."online";--> statement-breakpoint
CREATE INDEX "devices_sn_pattern" ON "devices" USING btree ("sn" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "devices_model_sn" ON "devices" USING btree ("model_id","sn");--> statement-breakpoint
CREATE INDEX "devices_region_sn" ON "devices" USING btree ("region","sn");--> statement-breakpoint
CREATE INDEX "devices_owner_sn" ON "devices" USING btree ("owner","sn");--> statement-breakpoint
CREATE INDEX "devices_created_sn" ON "devices" USING btree ("created_at","sn");--> statement-breakpoint
CREATE UNIQUE INDEX "telemetry_history_sn_at" ON "telemetry_history" USING btree ("sn","at");--> statement-breakpoint
CREATE INDEX "telemetry_history_received_brin" ON "telemetry_history" USING brin ("received_at");--> statement-breakpoint
CREATE INDEX "email_logs_created_at" ON "email_logs" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "ota_artifacts_version" ON "ota_artifacts" USING btree ("kind","model_id","language","version");--> statement-breakpoint
CREATE INDEX "ota_artifacts_kind_created" ON "ota_artifacts" USING btree ("kind","created_at");--> statement-breakpoint
CREATE INDEX "messages_user_type_status" ON "messages" USING btree ("user_id","type","status");--> statement-breakpoint
CREATE INDEX "ota_campaigns_status" ON "ota_campaigns" USING btree ("status","id");--> statement-breakpoint
CREATE UNIQUE INDEX "ota_jobs_campaign_sn" ON "ota_jobs" USING btree ("campaign_id","sn");--> statement-breakpoint
CREATE UNIQUE INDEX "ota_jobs_key" ON "ota_jobs" USING btree ("job_key");--> statement-breakpoint
CREATE INDEX "ota_jobs_campaign_state_ordinal" ON "ota_jobs" USING btree ("campaign_id","state","ordinal");--> statement-breakpoint
CREATE INDEX "ota_jobs_sn_id" ON "ota_jobs" USING btree ("sn","id");--> statement-breakpoint
CREATE INDEX "ota_jobs_updated" ON "ota_jobs" USING btree ("updated_at","id");--> statement-breakpoint
CREATE INDEX "ota_jobs_dispatched" ON "ota_jobs" USING btree ("campaign_id","dispatched_at");--> statement-breakpoint
CREATE UNIQUE INDEX "product_models_code" ON "product_models" USING btree ("code");--> statement-breakpoint
CREATE INDEX "shell_sessions_opened" ON "shell_sessions" USING btree ("opened_at","id");--> statement-breakpoint
CREATE INDEX "shell_sessions_sn_opened" ON "shell_sessions" USING btree ("sn","opened_at");--> statement-breakpoint
CREATE INDEX "shell_sessions_open_sn" ON "shell_sessions" USING btree ("sn") WHERE "shell_sessions"."status" = 'open';--> statement-breakpoint
CREATE INDEX "shell_sessions_open_staff" ON "shell_sessions" USING btree ("staff_id") WHERE "shell_sessions"."status" = 'open';--> statement-breakpoint
CREATE UNIQUE INDEX "staff_users_username_lower" ON "staff_users" USING btree (lower("username"));--> statement-breakpoint
CREATE INDEX "staff_users_email_lower" ON "staff_users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "system_logs_at" ON "system_logs" USING btree ("at");--> statement-breakpoint
CREATE INDEX "system_logs_actor_at" ON "system_logs" USING btree ("actor_name","at");--> statement-breakpoint
CREATE INDEX "system_logs_action_at" ON "system_logs" USING btree ("action","at");