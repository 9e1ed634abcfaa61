-- The transactional outbox: a domain event is inserted in the transaction of the change that
-- caused it, and each subscriber that names its type gets a pending delivery row in that same
-- statement. A delivery row exists until its subscriber handled the event; a node claims rows with
-- a lease (locked_until) under FOR UPDATE SKIP LOCKED, so one node at a time handles each
-- (subscriber, event), and a node that dies leaves its rows to another once the lease runs out.
CREATE TABLE "events" (
  "id" bigserial PRIMARY KEY,
  "type" text NOT NULL,
  "version" integer NOT NULL,
  "subject" text NOT NULL,
  "payload" jsonb NOT NULL,
  "created_at" timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
-- Retention deletes the oldest first, in batches.
CREATE INDEX "events_created_at_idx" ON "events" ("created_at");
--> statement-breakpoint
-- Every subscriber any node runs, with the types it wants (kept current as nodes start).
CREATE TABLE "event_subscribers" (
  "name" text PRIMARY KEY,
  "types" text[] NOT NULL,
  "delivered" bigint NOT NULL DEFAULT 0,
  "updated_at" timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
-- No foreign key to events: the ingest inserts these by the thousand, and retention never deletes
-- an event that still has a pending delivery.
CREATE TABLE "event_deliveries" (
  "subscriber" text NOT NULL,
  "event_id" bigint NOT NULL,
  "subject" text NOT NULL,
  "attempts" integer NOT NULL DEFAULT 0,
  "next_at" timestamptz NOT NULL DEFAULT now(),
  "locked_until" timestamptz,
  "locked_by" text,
  "last_error" text,
  "last_error_at" timestamptz,
  PRIMARY KEY ("subscriber", "event_id")
);
--> statement-breakpoint
-- "Is an earlier event of this subject still pending for this subscriber?": asked for every claim.
CREATE INDEX "event_deliveries_subject_idx" ON "event_deliveries" ("subscriber", "subject", "event_id");
--> statement-breakpoint
-- The events a subscriber has handled, for subscribers whose effects are in this database: the
-- handling and this row commit together, so a redelivered event is recognised by its id and skipped.
CREATE TABLE "event_handled" (
  "subscriber" text NOT NULL,
  "event_id" bigint NOT NULL,
  PRIMARY KEY ("subscriber", "event_id")
);
--> statement-breakpoint
-- New deliveries wake every node's dispatcher at commit (one notification per transaction; a
-- statement that inserted none, such as an ingest batch without changes, wakes nobody).
CREATE FUNCTION notify_event_deliveries() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM new_rows) THEN PERFORM pg_notify('event_deliveries', ''); END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER event_deliveries_notify AFTER INSERT ON event_deliveries REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION notify_event_deliveries();
