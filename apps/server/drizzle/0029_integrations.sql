-- API keys for other systems: only the SHA-256 of a key is kept (a key is 32 random bytes, so a
-- plain hash is enough), with its visible prefix for lists and logs. A revoked key keeps its row,
-- so the system log's attribution still names it.
CREATE TABLE "api_keys" (
  "id" serial PRIMARY KEY,
  "name" text NOT NULL,
  "prefix" text NOT NULL,
  "key_hash" text NOT NULL UNIQUE,
  "scopes" text[] NOT NULL,
  "created_by" integer REFERENCES "staff_users" ("id") ON DELETE SET NULL,
  "created_by_name" text NOT NULL,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "expires_at" timestamptz,
  "revoked_at" timestamptz,
  "last_used_at" timestamptz,
  "last_used_ip" text
);
--> statement-breakpoint
-- Webhooks: where signed events go. `previous_secret` still signs until `previous_secret_until`
-- (rotation overlap). `failing_since` is the first failure since the last success.
CREATE TABLE "webhooks" (
  "id" serial PRIMARY KEY,
  "url" text NOT NULL,
  "events" text[] NOT NULL,
  "description" text NOT NULL DEFAULT '',
  "secret" text NOT NULL,
  "previous_secret" text,
  "previous_secret_until" timestamptz,
  "enabled" boolean NOT NULL DEFAULT true,
  "disabled_reason" text,
  "failing_since" timestamptz,
  "created_by" integer REFERENCES "staff_users" ("id") ON DELETE SET NULL,
  "created_at" timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
-- One row per (webhook, event): the queue and the delivery log at once. A sender claims due rows
-- with FOR UPDATE SKIP LOCKED and a lease (locked_until), so one node sends each, and a row left by
-- a node that died is taken over when its lease ends. Test deliveries have no event id.
CREATE TABLE "webhook_deliveries" (
  "id" bigserial PRIMARY KEY,
  "webhook_id" integer NOT NULL REFERENCES "webhooks" ("id") ON DELETE CASCADE,
  "event_id" bigint,
  "message_id" text NOT NULL,
  "event_type" text NOT NULL,
  "body" text NOT NULL,
  "status" text NOT NULL DEFAULT 'pending',
  "attempts" integer NOT NULL DEFAULT 0,
  "next_at" timestamptz,
  "locked_until" timestamptz,
  "locked_by" text,
  "response_status" integer,
  "duration_ms" integer,
  "response_excerpt" text NOT NULL DEFAULT '',
  "error" text NOT NULL DEFAULT '',
  "request_headers" jsonb NOT NULL DEFAULT '{}'::jsonb,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "last_attempt_at" timestamptz,
  UNIQUE ("webhook_id", "event_id")
);
--> statement-breakpoint
-- The sender's question: which pending rows are due?
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" ("next_at") WHERE "status" = 'pending';
--> statement-breakpoint
-- The delivery log of one webhook, newest first.
CREATE INDEX "webhook_deliveries_log_idx" ON "webhook_deliveries" ("webhook_id", "id");
