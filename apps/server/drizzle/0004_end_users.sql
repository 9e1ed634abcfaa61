CREATE TABLE "app_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"purpose" text NOT NULL,
	"code_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "app_device_links" (
	"sn" text COLLATE "C" NOT NULL,
	"user_id" integer NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "app_device_links_sn_user_id_pk" PRIMARY KEY("sn","user_id")
);
--> statement-breakpoint
CREATE TABLE "app_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" integer NOT NULL,
	"refresh_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"ip" text DEFAULT '' NOT NULL,
	"user_agent" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "app_users" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"name" text NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"country" text DEFAULT '' NOT NULL,
	"city" text DEFAULT '' NOT NULL,
	"home_lat" double precision,
	"home_lng" double precision,
	"locale" text NOT NULL,
	"time_zone" text NOT NULL,
	"status" text DEFAULT 'unverified' NOT NULL,
	"disabled_reason" text DEFAULT '' NOT NULL,
	"device_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_login_at" timestamp with time zone,
	"deletion_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "device_geo" (
	"sn" text COLLATE "C" PRIMARY KEY NOT NULL,
	"lat" double precision NOT NULL,
	"lng" double precision NOT NULL,
	"country" text NOT NULL,
	"city" text NOT NULL,
	"city_lat" double precision,
	"city_lng" double precision,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_pairing_codes" (
	"sn" text COLLATE "C" PRIMARY KEY NOT NULL,
	"code_hash" text NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_logs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" integer,
	"email" text DEFAULT '' NOT NULL,
	"action" text NOT NULL,
	"result" text NOT NULL,
	"sn" text DEFAULT '' NOT NULL,
	"ip" text DEFAULT '' NOT NULL,
	"country" text DEFAULT '' NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "app_codes" ADD CONSTRAINT "app_codes_user_id_app_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."app_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_device_links" ADD CONSTRAINT "app_device_links_sn_devices_sn_fk" FOREIGN KEY ("sn") REFERENCES "public"."devices"("sn") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_device_links" ADD CONSTRAINT "app_device_links_user_id_app_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."app_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_sessions" ADD CONSTRAINT "app_sessions_user_id_app_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."app_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_geo" ADD CONSTRAINT "device_geo_sn_devices_sn_fk" FOREIGN KEY ("sn") REFERENCES "public"."devices"("sn") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_pairing_codes" ADD CONSTRAINT "device_pairing_codes_sn_devices_sn_fk" FOREIGN KEY ("sn") REFERENCES "public"."devices"("sn") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "app_codes_user_purpose" ON "app_codes" USING btree ("user_id","purpose");--> statement-breakpoint
CREATE UNIQUE INDEX "app_device_links_one_owner" ON "app_device_links" USING btree ("sn") WHERE "app_device_links"."role" = 'owner';--> statement-breakpoint
CREATE INDEX "app_device_links_user" ON "app_device_links" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "app_sessions_user" ON "app_sessions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "app_sessions_refresh" ON "app_sessions" USING btree ("refresh_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "app_users_email" ON "app_users" USING btree ("email");--> statement-breakpoint
CREATE INDEX "app_users_email_prefix" ON "app_users" USING btree ("email" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "app_users_name_prefix" ON "app_users" USING btree (lower("name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "app_users_status_id" ON "app_users" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "app_users_country_city_id" ON "app_users" USING btree ("country","city","id");--> statement-breakpoint
CREATE INDEX "app_users_created_id" ON "app_users" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "app_users_with_device_id" ON "app_users" USING btree ("id") WHERE "app_users"."device_count" > 0;--> statement-breakpoint
CREATE INDEX "app_users_deletion_at" ON "app_users" USING btree ("deletion_at") WHERE "app_users"."deletion_at" is not null;--> statement-breakpoint
CREATE INDEX "device_geo_country_city" ON "device_geo" USING btree ("country","city");--> statement-breakpoint
CREATE INDEX "user_logs_user_id" ON "user_logs" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "user_logs_sn_id" ON "user_logs" USING btree ("sn","id") WHERE "user_logs"."sn" <> '';--> statement-breakpoint
CREATE INDEX "user_logs_action_id" ON "user_logs" USING btree ("action","id");--> statement-breakpoint
CREATE INDEX "user_logs_at" ON "user_logs" USING btree ("at");