CREATE TABLE "app_spent_refresh" (
	"refresh_hash" text PRIMARY KEY NOT NULL,
	"session_id" uuid NOT NULL,
	"spent_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "app_spent_refresh" ADD CONSTRAINT "app_spent_refresh_session_id_app_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."app_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "app_spent_refresh_session" ON "app_spent_refresh" USING btree ("session_id");
