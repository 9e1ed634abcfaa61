CREATE TABLE "form_hits" (
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"hits" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "form_hits_scope_key_window_start_pk" PRIMARY KEY("scope","key","window_start")
);
--> statement-breakpoint
ALTER TABLE "login_attempts" ADD COLUMN "trusted" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "form_hits_window" ON "form_hits" USING btree ("window_start");--> statement-breakpoint
ALTER TABLE "captchas" DROP COLUMN "answer";