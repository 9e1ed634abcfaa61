-- ota_version_key(v): a text key whose byte order (COLLATE "C") is the order of compareVersions
-- (packages/contract/src/ota.ts): '' first; then major, minor, patch as numbers (a missing or
-- non-numeric part counts 0), each written as its digit count (3 digits) and its digits without
-- leading zeros; then '1' for a release, or '0' and the pre-release compared as a string (a
-- pre-release sorts before its release). Build metadata (from the first '+') is ignored, like the
-- '-' that starts an empty pre-release. Parts JavaScript's Number() reads but plain digits are not
-- (' 1', '0x1', '1e3') count 0 here; the firmware pattern admits none of them.
-- PL/pgSQL: a per-row call costs a few microseconds, several times less than the same as SQL.
CREATE FUNCTION ota_version_key(v text) RETURNS text LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  base text := split_part(v, '+', 1);
  core text := split_part(base, '-', 1);
  pre text := substr(base, length(core) + 2);
  key text := '1';
  part text;
BEGIN
  IF v = '' THEN RETURN '0'; END IF;
  FOR i IN 1..3 LOOP
    part := split_part(core, '.', i);
    IF part <> '' AND ltrim(part, '0123456789') = '' THEN
      part := ltrim(part, '0');
      key := key || lpad(length(part)::text, 3, '0') || part;
    ELSE
      key := key || '000';
    END IF;
  END LOOP;
  IF pre = '' THEN RETURN key || '1'; END IF;
  RETURN key || '0' || pre;
END
$$;--> statement-breakpoint
DROP INDEX "ota_jobs_key";--> statement-breakpoint
DROP INDEX "ota_jobs_dispatched";--> statement-breakpoint
ALTER TABLE "device_state" ADD COLUMN "firmware_key" text COLLATE "C" GENERATED ALWAYS AS (ota_version_key(firmware)) STORED;--> statement-breakpoint
CREATE INDEX "device_state_firmware_key_sn" ON "device_state" USING btree ("firmware_key","sn");--> statement-breakpoint
CREATE UNIQUE INDEX "ota_jobs_key" ON "ota_jobs" USING btree ("job_key") WHERE "ota_jobs"."job_key" is not null;--> statement-breakpoint
CREATE INDEX "ota_jobs_dispatched" ON "ota_jobs" USING btree ("campaign_id","dispatched_at") WHERE "ota_jobs"."dispatched_at" is not null;