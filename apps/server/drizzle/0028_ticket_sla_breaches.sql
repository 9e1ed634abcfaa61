-- A ticket's SLA clock that ran past its due time, once per (ticket, clock, due time): the
-- `ticket.sla_breached` event is written with the row, so each breach is told exactly once. A due
-- time that moves (a pause, a new priority) and is passed again is a new breach.
CREATE TABLE "ticket_sla_breaches" (
  "ticket_id" integer NOT NULL REFERENCES "tickets" ("id") ON DELETE CASCADE,
  "clock" text NOT NULL,
  "due_at" timestamptz NOT NULL,
  "at" timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY ("ticket_id", "clock", "due_at")
);
