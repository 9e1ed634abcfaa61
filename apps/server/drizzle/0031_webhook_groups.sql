-- A webhook may narrow device events to the mowers of some device groups (empty: every mower).
ALTER TABLE "webhooks" ADD COLUMN "group_ids" integer[] NOT NULL DEFAULT '{}';
