CREATE SEQUENCE "public"."ticket_numbers" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 100001 CACHE 1;--> statement-breakpoint
CREATE TABLE "ticket_attachments" (
	"id" serial PRIMARY KEY NOT NULL,
	"ticket_id" integer NOT NULL,
	"entry_id" integer,
	"name" text NOT NULL,
	"mime" text NOT NULL,
	"size" bigint NOT NULL,
	"file_path" text NOT NULL,
	"thumb_path" text,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ticket_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"ticket_id" integer NOT NULL,
	"kind" text NOT NULL,
	"internal" boolean DEFAULT false NOT NULL,
	"channel" text NOT NULL,
	"author_staff_id" integer,
	"author_name" text DEFAULT '' NOT NULL,
	"body" text NOT NULL,
	"merged_from_number" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ticket_history" (
	"id" serial PRIMARY KEY NOT NULL,
	"ticket_id" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_staff_id" integer,
	"actor_name" text DEFAULT '' NOT NULL,
	"field" text NOT NULL,
	"from" text DEFAULT '' NOT NULL,
	"to" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ticket_sla" (
	"priority" text PRIMARY KEY NOT NULL,
	"first_response_minutes" integer NOT NULL,
	"resolution_minutes" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tickets" (
	"id" serial PRIMARY KEY NOT NULL,
	"number" integer DEFAULT nextval('ticket_numbers') NOT NULL,
	"user_id" integer NOT NULL,
	"sn" text COLLATE "C",
	"category" text NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"app_version" text DEFAULT '' NOT NULL,
	"os" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'new' NOT NULL,
	"priority" text DEFAULT 'normal' NOT NULL,
	"assignee_id" integer,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"merged_into_id" integer,
	"device_snapshot" jsonb,
	"first_response_due" timestamp with time zone,
	"resolution_due" timestamp with time zone,
	"sla_paused_at" timestamp with time zone,
	"sla_paused_s" integer DEFAULT 0 NOT NULL,
	"first_response_at" timestamp with time zone,
	"resolved_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"rating_score" smallint,
	"rating_comment" text DEFAULT '' NOT NULL,
	"rated_at" timestamp with time zone,
	"search" "tsvector" NOT NULL,
	"last_activity_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ticket_attachments" ADD CONSTRAINT "ticket_attachments_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_attachments" ADD CONSTRAINT "ticket_attachments_entry_id_ticket_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."ticket_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_entries" ADD CONSTRAINT "ticket_entries_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_entries" ADD CONSTRAINT "ticket_entries_author_staff_id_staff_users_id_fk" FOREIGN KEY ("author_staff_id") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_history" ADD CONSTRAINT "ticket_history_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_history" ADD CONSTRAINT "ticket_history_actor_staff_id_staff_users_id_fk" FOREIGN KEY ("actor_staff_id") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_user_id_app_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."app_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_assignee_id_staff_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ticket_attachments_ticket" ON "ticket_attachments" USING btree ("ticket_id");--> statement-breakpoint
CREATE INDEX "ticket_entries_ticket" ON "ticket_entries" USING btree ("ticket_id","id");--> statement-breakpoint
CREATE INDEX "ticket_history_ticket" ON "ticket_history" USING btree ("ticket_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "tickets_number" ON "tickets" USING btree ("number");--> statement-breakpoint
CREATE INDEX "tickets_activity" ON "tickets" USING btree ("last_activity_at","id");--> statement-breakpoint
CREATE INDEX "tickets_created" ON "tickets" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "tickets_status_activity" ON "tickets" USING btree ("status","last_activity_at","id");--> statement-breakpoint
CREATE INDEX "tickets_priority_activity" ON "tickets" USING btree ("priority","last_activity_at","id");--> statement-breakpoint
CREATE INDEX "tickets_category_activity" ON "tickets" USING btree ("category","last_activity_at","id");--> statement-breakpoint
CREATE INDEX "tickets_assignee_activity" ON "tickets" USING btree ("assignee_id","last_activity_at","id");--> statement-breakpoint
CREATE INDEX "tickets_user_activity" ON "tickets" USING btree ("user_id","last_activity_at","id");--> statement-breakpoint
CREATE INDEX "tickets_sn_activity" ON "tickets" USING btree ("sn","last_activity_at","id") WHERE "tickets"."sn" is not null;--> statement-breakpoint
CREATE INDEX "tickets_unassigned_activity" ON "tickets" USING btree ("last_activity_at","id") WHERE "tickets"."assignee_id" is null and "tickets"."status" in ('new', 'open', 'pending_customer');--> statement-breakpoint
CREATE INDEX "tickets_first_response_running" ON "tickets" USING btree ("first_response_due") WHERE "tickets"."first_response_at" is null and "tickets"."status" in ('new', 'open');--> statement-breakpoint
CREATE INDEX "tickets_resolution_running" ON "tickets" USING btree ("resolution_due") WHERE "tickets"."status" in ('new', 'open');--> statement-breakpoint
CREATE INDEX "tickets_merged_into" ON "tickets" USING btree ("merged_into_id") WHERE "tickets"."merged_into_id" is not null;--> statement-breakpoint
CREATE INDEX "tickets_search" ON "tickets" USING gin ("search");--> statement-breakpoint
CREATE INDEX "tickets_tags" ON "tickets" USING gin ("tags");