CREATE TABLE "app_user_device_places" (
	"user_id" integer NOT NULL,
	"country" text NOT NULL,
	"city" text NOT NULL,
	CONSTRAINT "app_user_device_places_user_id_country_city_pk" PRIMARY KEY("user_id","country","city")
);
--> statement-breakpoint
CREATE TABLE "app_user_home_places" (
	"country" text NOT NULL,
	"city" text NOT NULL,
	"users" integer NOT NULL,
	"lat_sum" double precision NOT NULL,
	"lat_n" integer NOT NULL,
	"lng_sum" double precision NOT NULL,
	"lng_n" integer NOT NULL,
	CONSTRAINT "app_user_home_places_country_city_pk" PRIMARY KEY("country","city")
);
--> statement-breakpoint
CREATE TABLE "device_user_countries" (
	"country" text PRIMARY KEY NOT NULL,
	"users" integer NOT NULL,
	"named_users" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_user_places" (
	"country" text NOT NULL,
	"city" text NOT NULL,
	"users" integer NOT NULL,
	"lat" double precision,
	"lng" double precision,
	CONSTRAINT "device_user_places_country_city_pk" PRIMARY KEY("country","city")
);
--> statement-breakpoint
CREATE INDEX "app_users_country_status_id" ON "app_users" USING btree ("country","status","id");--> statement-breakpoint
-- Each statement on app_users adds its rows' difference to app_user_home_places, grouped by place
-- (in key order, so concurrent writers lock the same rows in the same order). An UPDATE counts
-- only the rows whose place or home moved. Places left at zero users are removed.
CREATE FUNCTION "app_user_home_places_sync"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO app_user_home_places AS p (country, city, users, lat_sum, lat_n, lng_sum, lng_n)
    SELECT country, city, count(*), coalesce(sum(home_lat), 0), count(home_lat), coalesce(sum(home_lng), 0), count(home_lng)
    FROM new_rows GROUP BY country, city ORDER BY country, city
    ON CONFLICT (country, city) DO UPDATE SET users = p.users + excluded.users, lat_sum = p.lat_sum + excluded.lat_sum,
      lat_n = p.lat_n + excluded.lat_n, lng_sum = p.lng_sum + excluded.lng_sum, lng_n = p.lng_n + excluded.lng_n;
    RETURN NULL;
  END IF;
  IF TG_OP = 'DELETE' THEN
    INSERT INTO app_user_home_places AS p (country, city, users, lat_sum, lat_n, lng_sum, lng_n)
    SELECT country, city, -count(*), -coalesce(sum(home_lat), 0), -count(home_lat), -coalesce(sum(home_lng), 0), -count(home_lng)
    FROM old_rows GROUP BY country, city ORDER BY country, city
    ON CONFLICT (country, city) DO UPDATE SET users = p.users + excluded.users, lat_sum = p.lat_sum + excluded.lat_sum,
      lat_n = p.lat_n + excluded.lat_n, lng_sum = p.lng_sum + excluded.lng_sum, lng_n = p.lng_n + excluded.lng_n;
    DELETE FROM app_user_home_places p WHERE p.users <= 0 AND (p.country, p.city) IN (SELECT country, city FROM old_rows);
    RETURN NULL;
  END IF;
  -- UPDATE: old and new of the rows whose place or home changed.
  INSERT INTO app_user_home_places AS p (country, city, users, lat_sum, lat_n, lng_sum, lng_n)
  SELECT country, city, sum(n), coalesce(sum(lat), 0), sum(lat_n), coalesce(sum(lng), 0), sum(lng_n)
  FROM (
    SELECT o.country, o.city, -1 AS n, -o.home_lat AS lat, -(o.home_lat IS NOT NULL)::int AS lat_n, -o.home_lng AS lng, -(o.home_lng IS NOT NULL)::int AS lng_n
    FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE (o.country, o.city, o.home_lat, o.home_lng) IS DISTINCT FROM (n.country, n.city, n.home_lat, n.home_lng)
    UNION ALL
    SELECT n.country, n.city, 1, n.home_lat, (n.home_lat IS NOT NULL)::int, n.home_lng, (n.home_lng IS NOT NULL)::int
    FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE (o.country, o.city, o.home_lat, o.home_lng) IS DISTINCT FROM (n.country, n.city, n.home_lat, n.home_lng)
  ) d GROUP BY country, city ORDER BY country, city
  ON CONFLICT (country, city) DO UPDATE SET users = p.users + excluded.users, lat_sum = p.lat_sum + excluded.lat_sum,
    lat_n = p.lat_n + excluded.lat_n, lng_sum = p.lng_sum + excluded.lng_sum, lng_n = p.lng_n + excluded.lng_n;
  DELETE FROM app_user_home_places p WHERE p.users <= 0 AND (p.country, p.city) IN (SELECT country, city FROM old_rows);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "app_users_home_places_insert" AFTER INSERT ON "app_users" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "app_user_home_places_sync"();
--> statement-breakpoint
CREATE TRIGGER "app_users_home_places_update" AFTER UPDATE ON "app_users" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "app_user_home_places_sync"();
--> statement-breakpoint
CREATE TRIGGER "app_users_home_places_delete" AFTER DELETE ON "app_users" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "app_user_home_places_sync"();
--> statement-breakpoint
INSERT INTO "app_user_home_places" (country, city, users, lat_sum, lat_n, lng_sum, lng_n)
SELECT country, city, count(*), coalesce(sum(home_lat), 0), count(home_lat), coalesce(sum(home_lng), 0), count(home_lng) FROM "app_users" GROUP BY country, city;
--> statement-breakpoint
-- The device basis: recompute the distinct (country, city) of the given users' mowers from the
-- links and coded positions, compare with what app_user_device_places held for them, and add the
-- difference to device_user_places and device_user_countries. The users' rows are locked first
-- (in id order), so two transactions touching one user count it once.
CREATE FUNCTION "app_user_device_places_refresh"(affected int[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM app_users WHERE id = ANY(affected) ORDER BY id FOR NO KEY UPDATE;
  -- Users per place.
  WITH o AS (SELECT user_id, country, city FROM app_user_device_places WHERE user_id = ANY(affected)),
  n AS (
    SELECT l.user_id, g.country, g.city, min(g.city_lat) AS lat, min(g.city_lng) AS lng
    FROM app_device_links l JOIN device_geo g ON g.sn = l.sn WHERE l.user_id = ANY(affected) GROUP BY 1, 2, 3
  )
  INSERT INTO device_user_places AS p (country, city, users, lat, lng)
  SELECT country, city, sum(s), min(lat), min(lng)
  FROM (SELECT country, city, -1 AS s, NULL::double precision AS lat, NULL::double precision AS lng FROM o
        UNION ALL SELECT country, city, 1, lat, lng FROM n) d
  GROUP BY country, city HAVING sum(s) <> 0 ORDER BY country, city
  ON CONFLICT (country, city) DO UPDATE SET users = p.users + excluded.users,
    lat = coalesce(least(p.lat, excluded.lat), p.lat, excluded.lat), lng = coalesce(least(p.lng, excluded.lng), p.lng, excluded.lng);
  -- Users per country (and with a named city in it); '*' for any country.
  WITH o AS (SELECT user_id, country, city FROM app_user_device_places WHERE user_id = ANY(affected)),
  n AS (SELECT DISTINCT l.user_id, g.country, g.city FROM app_device_links l JOIN device_geo g ON g.sn = l.sn WHERE l.user_id = ANY(affected)),
  d AS (
    SELECT country, -1 AS s, -(bool_or(city <> ''))::int AS named FROM o GROUP BY user_id, country
    UNION ALL SELECT country, 1, (bool_or(city <> ''))::int FROM n GROUP BY user_id, country
    UNION ALL SELECT '*', -(bool_or(country <> ''))::int, -(bool_or(city <> ''))::int FROM o GROUP BY user_id
    UNION ALL SELECT '*', (bool_or(country <> ''))::int, (bool_or(city <> ''))::int FROM n GROUP BY user_id
  )
  INSERT INTO device_user_countries AS c (country, users, named_users)
  SELECT country, sum(s), sum(named) FROM d GROUP BY country HAVING sum(s) <> 0 OR sum(named) <> 0 ORDER BY country
  ON CONFLICT (country) DO UPDATE SET users = c.users + excluded.users, named_users = c.named_users + excluded.named_users;
  DELETE FROM device_user_places WHERE users <= 0;
  DELETE FROM device_user_countries WHERE users <= 0 AND named_users <= 0;
  -- What the counts now hold for these users.
  DELETE FROM app_user_device_places WHERE user_id = ANY(affected);
  INSERT INTO app_user_device_places (user_id, country, city)
  SELECT DISTINCT l.user_id, g.country, g.city FROM app_device_links l JOIN device_geo g ON g.sn = l.sn WHERE l.user_id = ANY(affected);
END $$;
--> statement-breakpoint
CREATE FUNCTION "app_device_links_places_sync"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM app_user_device_places_refresh(array(SELECT DISTINCT user_id FROM new_rows));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM app_user_device_places_refresh(array(SELECT DISTINCT user_id FROM old_rows));
  ELSE
    PERFORM app_user_device_places_refresh(array(SELECT user_id FROM old_rows UNION SELECT user_id FROM new_rows));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "app_device_links_places_insert" AFTER INSERT ON "app_device_links" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "app_device_links_places_sync"();
--> statement-breakpoint
CREATE TRIGGER "app_device_links_places_update" AFTER UPDATE ON "app_device_links" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "app_device_links_places_sync"();
--> statement-breakpoint
CREATE TRIGGER "app_device_links_places_delete" AFTER DELETE ON "app_device_links" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "app_device_links_places_sync"();
--> statement-breakpoint
-- A coded position counts when its place changes: the users of those mowers are recomputed.
CREATE FUNCTION "device_geo_places_sync"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE affected int[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    affected := array(SELECT DISTINCT l.user_id FROM new_rows g JOIN app_device_links l ON l.sn = g.sn);
  ELSIF TG_OP = 'DELETE' THEN
    affected := array(SELECT DISTINCT l.user_id FROM old_rows g JOIN app_device_links l ON l.sn = g.sn);
  ELSE
    affected := array(
      SELECT DISTINCT l.user_id FROM old_rows o JOIN new_rows n ON n.sn = o.sn JOIN app_device_links l ON l.sn = n.sn
      WHERE (o.country, o.city) IS DISTINCT FROM (n.country, n.city));
  END IF;
  IF cardinality(affected) > 0 THEN
    PERFORM app_user_device_places_refresh(affected);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "device_geo_places_insert" AFTER INSERT ON "device_geo" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "device_geo_places_sync"();
--> statement-breakpoint
CREATE TRIGGER "device_geo_places_update" AFTER UPDATE ON "device_geo" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "device_geo_places_sync"();
--> statement-breakpoint
CREATE TRIGGER "device_geo_places_delete" AFTER DELETE ON "device_geo" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "device_geo_places_sync"();
--> statement-breakpoint
SELECT app_user_device_places_refresh(array(SELECT DISTINCT user_id FROM app_device_links));
