CREATE TABLE "staff_notify_prefs" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"severities" jsonb NOT NULL,
	"codes" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "staff_notify_prefs" ADD CONSTRAINT "staff_notify_prefs_user_id_staff_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."staff_users"("id") ON DELETE cascade ON UPDATE no action;