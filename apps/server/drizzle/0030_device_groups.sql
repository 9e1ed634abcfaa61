-- Labels on devices: staff tags (source 'staff') and the attributes a device reports about itself
-- (source 'device', e.g. hwRev, region), kept apart by `source` and filtered the same way. One row
-- per (device, source, key); a filter on key and value is a range of the (source, key, value, sn)
-- index, so a tag filter or a dynamic group stays an index scan at a million devices.
CREATE TABLE "device_tags" (
  "sn" text COLLATE "C" NOT NULL REFERENCES "devices"("sn") ON DELETE CASCADE,
  "source" text NOT NULL CHECK ("source" IN ('staff', 'device')),
  "key" text NOT NULL,
  "value" text NOT NULL,
  "updated_at" timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY ("sn", "source", "key")
);
--> statement-breakpoint
CREATE INDEX "device_tags_source_key_value_sn" ON "device_tags" ("source", "key", "value", "sn");
--> statement-breakpoint
-- Named sets of devices: static (an explicit member list) or dynamic (a saved device filter with
-- tag conditions; its members are whatever matches now).
CREATE TABLE "device_groups" (
  "id" serial PRIMARY KEY,
  "name" text NOT NULL,
  "description" text NOT NULL DEFAULT '',
  "kind" text NOT NULL CHECK ("kind" IN ('static', 'dynamic')),
  "filter" jsonb,
  "created_by" integer,
  "created_by_name" text NOT NULL DEFAULT '',
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "updated_at" timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE UNIQUE INDEX "device_groups_name_lower" ON "device_groups" (lower("name"));
--> statement-breakpoint
-- Members of static groups; (group_id, sn) pages a group in SN order, (sn) finds a device's groups.
CREATE TABLE "device_group_members" (
  "group_id" integer NOT NULL REFERENCES "device_groups"("id") ON DELETE CASCADE,
  "sn" text COLLATE "C" NOT NULL REFERENCES "devices"("sn") ON DELETE CASCADE,
  "added_at" timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY ("group_id", "sn")
);
--> statement-breakpoint
CREATE INDEX "device_group_members_sn" ON "device_group_members" ("sn");
