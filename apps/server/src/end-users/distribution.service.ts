import { sql } from 'drizzle-orm';
import type { CityDistribution, CountryDistribution, DistributionQuery } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { countryName, countryNumeric, locate } from './geo.ts';

/** A mower counts in a new place once it has moved this far (degrees, about 5 km). */
const MOVE_DEGREES = 0.05;
/** A distribution call refreshes the coded positions first when the last refresh is older than this. */
const FRESH_MS = 10_000;

type Rows<T> = { rows: T[] };
const rowsOf = <T>(result: unknown) => (result as Rows<T>).rows;

/** When each database's positions were last coded (per database: one process may serve several, as test runs do). */
const lastRefresh = new WeakMap<Db, number>();

/**
 * Codes the positions of mowers that are new or have moved (country-coder + nearest place) into
 * `device_geo`, `limit` at a time; returns how many it coded.
 */
export async function refreshDeviceGeo(db: Db, limit = 5000): Promise<number> {
  lastRefresh.set(db, Date.now());
  const moved = rowsOf<{ sn: string; lat: number; lng: number }>(
    await db.execute(sql`
      select s.sn, s.lat, s.lng from device_state s left join device_geo g on g.sn = s.sn
      where s.lat is not null and s.lng is not null
        and (g.sn is null or abs(g.lat - s.lat) > ${MOVE_DEGREES} or abs(g.lng - s.lng) > ${MOVE_DEGREES})
      limit ${limit}`),
  );
  for (let i = 0; i < moved.length; i += 500) {
    const part = moved.slice(i, i + 500).map((m) => ({ ...m, ...locate(Number(m.lat), Number(m.lng)) }));
    const values = sql.join(
      part.map((p) => sql`(${p.sn}, ${p.lat}, ${p.lng}, ${p.country}, ${p.city}, ${p.cityLat}, ${p.cityLng}, now())`),
      sql`, `,
    );
    await db.execute(sql`
      insert into device_geo (sn, lat, lng, country, city, city_lat, city_lng, updated_at) values ${values}
      on conflict (sn) do update set lat = excluded.lat, lng = excluded.lng, country = excluded.country, city = excluded.city,
        city_lat = excluded.city_lat, city_lng = excluded.city_lng, updated_at = excluded.updated_at`);
  }
  return moved.length;
}

async function freshGeo(db: Db) {
  if (Date.now() - (lastRefresh.get(db) ?? 0) > FRESH_MS) await refreshDeviceGeo(db);
}

const share = (count: number, total: number) => (total > 0 ? Math.round((count / total) * 10_000) / 10_000 : 0);

function countryRow(country: string, count: number, total: number) {
  return { country, numeric: countryNumeric(country), name: countryName(country), count, share: share(count, total) };
}

/**
 * Users per country: `home` from the profile (the trigger-kept roll-up app_user_home_places: a
 * few thousand places, not a million users), `device` from where their mowers are.
 */
export async function usersByCountry(db: Db, q: DistributionQuery): Promise<CountryDistribution> {
  let groups: Array<{ country: string; n: number }>;
  let total: number;
  if (q.basis === 'home') {
    // The roll-up kept by triggers (app_user_home_places), not a count over every user.
    groups = rowsOf(
      await db.execute(sql`select country, sum(users)::int as n from app_user_home_places where country <> '' group by country having sum(users) > 0 order by n desc, country`),
    );
    total = groups.reduce((sum, g) => sum + Number(g.n), 0);
  } else {
    await freshGeo(db);
    // Kept by triggers on the links and the coded positions (device_user_countries; '*' = any country).
    groups = rowsOf(
      await db.execute(sql`select country, users as n from device_user_countries where country not in ('', '*') and users > 0 order by n desc, country`),
    );
    const [row] = rowsOf<{ n: number }>(await db.execute(sql`select users as n from device_user_countries where country = '*'`));
    total = Number(row?.n ?? 0);
  }
  const top = groups.slice(0, q.limit);
  const other = groups.slice(q.limit).reduce((sum, g) => sum + Number(g.n), 0);
  return { basis: q.basis, total, other, list: top.map((g) => countryRow(g.country, Number(g.n), total)) };
}

/** Users per city (optionally in one country); device basis names the nearest place to each mower. */
export async function usersByCity(db: Db, q: DistributionQuery): Promise<CityDistribution> {
  type Group = { country: string; city: string; n: number; lat: number | null; lng: number | null };
  let groups: Group[];
  let total: number;
  let all: number;
  if (q.basis === 'home') {
    const inCountry = q.country ? sql`and country = ${q.country}` : sql``;
    groups = rowsOf(
      await db.execute(sql`
        select country, city, users as n, case when lat_n > 0 then lat_sum / lat_n end as lat, case when lng_n > 0 then lng_sum / lng_n end as lng
        from app_user_home_places where city <> '' and users > 0 ${inCountry} order by n desc, country, city limit ${q.limit}`),
    );
    const [row] = rowsOf<{ n: number }>(await db.execute(sql`select coalesce(sum(users), 0)::int as n from app_user_home_places where city <> '' ${inCountry}`));
    total = Number(row?.n ?? 0);
    all = total;
  } else {
    await freshGeo(db);
    // Kept by triggers (device_user_places, device_user_countries): users per place, per country.
    const inCountry = q.country ? sql`and country = ${q.country}` : sql``;
    groups = rowsOf(
      await db.execute(sql`
        select country, city, users as n, lat, lng from device_user_places
        where city <> '' and users > 0 ${inCountry} order by n desc, country, city limit ${q.limit}`),
    );
    const [users] = rowsOf<{ n: number }>(await db.execute(sql`select named_users as n from device_user_countries where country = ${q.country ?? '*'}`));
    const [pairs] = rowsOf<{ n: number }>(await db.execute(sql`select coalesce(sum(users), 0)::int as n from device_user_places where city <> '' ${inCountry}`));
    total = Number(users?.n ?? 0);
    all = Number(pairs?.n ?? 0);
  }
  const listed = groups.reduce((sum, g) => sum + Number(g.n), 0);
  return {
    basis: q.basis,
    total,
    other: Math.max(0, all - listed),
    list: groups.map((g) => ({
      ...countryRow(g.country, Number(g.n), total),
      city: g.city,
      position: g.lat === null || g.lng === null ? null : { lat: Number(g.lat), lng: Number(g.lng) },
    })),
  };
}
