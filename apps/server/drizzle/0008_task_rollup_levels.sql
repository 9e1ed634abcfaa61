CREATE TABLE "task_rollups_daily" (
	"day" timestamp with time zone NOT NULL,
	"model_code" text NOT NULL,
	"firmware" text NOT NULL,
	"runs" integer DEFAULT 0 NOT NULL,
	"ended" integer DEFAULT 0 NOT NULL,
	"completed" integer DEFAULT 0 NOT NULL,
	"interrupted" integer DEFAULT 0 NOT NULL,
	"user_ended" integer DEFAULT 0 NOT NULL,
	"faults" integer DEFAULT 0 NOT NULL,
	"area_m2" double precision DEFAULT 0 NOT NULL,
	"duration_s" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "task_rollups_daily_day_model_code_firmware_pk" PRIMARY KEY("day","model_code","firmware")
);
--> statement-breakpoint
CREATE TABLE "task_rollups_hourly" (
	"hour" timestamp with time zone NOT NULL,
	"model_code" text NOT NULL,
	"firmware" text NOT NULL,
	"runs" integer DEFAULT 0 NOT NULL,
	"ended" integer DEFAULT 0 NOT NULL,
	"completed" integer DEFAULT 0 NOT NULL,
	"interrupted" integer DEFAULT 0 NOT NULL,
	"user_ended" integer DEFAULT 0 NOT NULL,
	"faults" integer DEFAULT 0 NOT NULL,
	"area_m2" double precision DEFAULT 0 NOT NULL,
	"duration_s" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "task_rollups_hourly_hour_model_code_firmware_pk" PRIMARY KEY("hour","model_code","firmware")
);
--> statement-breakpoint
INSERT INTO "task_rollups_hourly" SELECT date_bin('1 hour', "bucket", timestamptz '1970-01-01 00:00+00'), "model_code", "firmware", sum("runs"), sum("ended"), sum("completed"), sum("interrupted"), sum("user_ended"), sum("faults"), sum("area_m2"), sum("duration_s") FROM "task_rollups" GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO "task_rollups_daily" SELECT date_bin('1 day', "bucket", timestamptz '1970-01-01 00:00+00'), "model_code", "firmware", sum("runs"), sum("ended"), sum("completed"), sum("interrupted"), sum("user_ended"), sum("faults"), sum("area_m2"), sum("duration_s") FROM "task_rollups" GROUP BY 1, 2, 3;
--> statement-breakpoint
-- Every change of a 15-minute roll-up row adds its difference to its hour and its UTC day, in the same transaction.
CREATE FUNCTION "task_rollup_levels_add"(b timestamptz, m text, f text, r integer, e integer, c integer, i integer, u integer, fa integer, a_m2 double precision, d_s bigint) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "task_rollups_hourly" AS h VALUES (date_bin('1 hour', b, timestamptz '1970-01-01 00:00+00'), m, f, r, e, c, i, u, fa, a_m2, d_s)
    ON CONFLICT ("hour", "model_code", "firmware") DO UPDATE SET runs = h.runs + excluded.runs, ended = h.ended + excluded.ended, completed = h.completed + excluded.completed,
      interrupted = h.interrupted + excluded.interrupted, user_ended = h.user_ended + excluded.user_ended, faults = h.faults + excluded.faults,
      area_m2 = h.area_m2 + excluded.area_m2, duration_s = h.duration_s + excluded.duration_s;
  INSERT INTO "task_rollups_daily" AS d VALUES (date_bin('1 day', b, timestamptz '1970-01-01 00:00+00'), m, f, r, e, c, i, u, fa, a_m2, d_s)
    ON CONFLICT ("day", "model_code", "firmware") DO UPDATE SET runs = d.runs + excluded.runs, ended = d.ended + excluded.ended, completed = d.completed + excluded.completed,
      interrupted = d.interrupted + excluded.interrupted, user_ended = d.user_ended + excluded.user_ended, faults = d.faults + excluded.faults,
      area_m2 = d.area_m2 + excluded.area_m2, duration_s = d.duration_s + excluded.duration_s;
$$;
--> statement-breakpoint
CREATE FUNCTION "task_rollup_levels_sync"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND (NEW.bucket, NEW.model_code, NEW.firmware) = (OLD.bucket, OLD.model_code, OLD.firmware) THEN
    PERFORM "task_rollup_levels_add"(NEW.bucket, NEW.model_code, NEW.firmware, NEW.runs - OLD.runs, NEW.ended - OLD.ended, NEW.completed - OLD.completed, NEW.interrupted - OLD.interrupted,
      NEW.user_ended - OLD.user_ended, NEW.faults - OLD.faults, NEW.area_m2 - OLD.area_m2, NEW.duration_s - OLD.duration_s);
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    PERFORM "task_rollup_levels_add"(OLD.bucket, OLD.model_code, OLD.firmware, -OLD.runs, -OLD.ended, -OLD.completed, -OLD.interrupted, -OLD.user_ended, -OLD.faults, -OLD.area_m2, -OLD.duration_s);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM "task_rollup_levels_add"(NEW.bucket, NEW.model_code, NEW.firmware, NEW.runs, NEW.ended, NEW.completed, NEW.interrupted, NEW.user_ended, NEW.faults, NEW.area_m2, NEW.duration_s);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "task_rollup_levels_sync" AFTER INSERT OR UPDATE OR DELETE ON "task_rollups" FOR EACH ROW EXECUTE FUNCTION "task_rollup_levels_sync"();
