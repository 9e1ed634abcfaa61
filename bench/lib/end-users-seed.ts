/**
 * App users, their mowers and their log for bench/api.ts, seeded set-based (INSERT … SELECT
 * generate_series) into a database that already holds `devices` mowers D0000001… with a position
 * in `device_state`.
 *
 * Users are newest-last by id (created over three years). Each draws a place from a popularity-
 * ordered list (`places`: about 60 real cities in 20 countries, power-law skewed so a few countries
 * and cities hold most users), a quarter of them a small town of that country instead (2,000 per
 * country), 5% no city and 1% no country. Statuses: 80% active, 12% unverified, 5% disabled, 3%
 * deletion pending. Mowers: user g owns D(g) when g % 10 < 3, a second mower when g % 100 = 1, and
 * shares the mower of user g − 5 when g % 20 = 5 (so about 35% of users have one). Every mower has
 * a coded position (`device_geo`, the steady state of the geocoding job) in the place of the user
 * of the same number. The log spreads `logs` rows over the last 180 days (ids in time order) over
 * all users: logins most, then commands, sign-ups, profile changes, binds; 6% failures.
 *
 * Places and names come from a hash of the user's number, so the log and the mowers agree with
 * the profile without a join. Secondary indexes are dropped during the load and rebuilt after
 * (from their own definitions), as a restore would.
 */
import type pg from 'pg';

const places: Array<[country: string, city: string, lat: number, lng: number, timeZone: string]> = [
  ['DE', 'Berlin', 52.52, 13.405, 'Europe/Berlin'],
  ['US', 'New York City', 40.713, -74.006, 'America/New_York'],
  ['DE', 'Hamburg', 53.551, 9.994, 'Europe/Berlin'],
  ['GB', 'London', 51.507, -0.128, 'Europe/London'],
  ['DE', 'Munich', 48.137, 11.575, 'Europe/Berlin'],
  ['FR', 'Paris', 48.857, 2.352, 'Europe/Paris'],
  ['US', 'Los Angeles', 34.052, -118.244, 'America/Los_Angeles'],
  ['CN', 'Shanghai', 31.23, 121.474, 'Asia/Shanghai'],
  ['NL', 'Amsterdam', 52.37, 4.895, 'Europe/Amsterdam'],
  ['DE', 'Cologne', 50.938, 6.96, 'Europe/Berlin'],
  ['US', 'Chicago', 41.878, -87.63, 'America/Chicago'],
  ['SE', 'Stockholm', 59.329, 18.069, 'Europe/Stockholm'],
  ['GB', 'Manchester', 53.481, -2.243, 'Europe/London'],
  ['CN', 'Beijing', 39.904, 116.407, 'Asia/Shanghai'],
  ['DE', 'Frankfurt am Main', 50.11, 8.682, 'Europe/Berlin'],
  ['FR', 'Lyon', 45.764, 4.836, 'Europe/Paris'],
  ['US', 'Houston', 29.76, -95.37, 'America/Chicago'],
  ['JP', 'Tokyo', 35.69, 139.692, 'Asia/Tokyo'],
  ['AT', 'Vienna', 48.208, 16.373, 'Europe/Vienna'],
  ['CH', 'Zurich', 47.377, 8.54, 'Europe/Zurich'],
  ['DE', 'Stuttgart', 48.776, 9.183, 'Europe/Berlin'],
  ['NL', 'Rotterdam', 51.924, 4.478, 'Europe/Amsterdam'],
  ['US', 'Seattle', 47.606, -122.332, 'America/Los_Angeles'],
  ['AU', 'Sydney', -33.869, 151.209, 'Australia/Sydney'],
  ['CA', 'Toronto', 43.653, -79.383, 'America/Toronto'],
  ['IT', 'Milan', 45.464, 9.19, 'Europe/Rome'],
  ['ES', 'Madrid', 40.417, -3.704, 'Europe/Madrid'],
  ['PL', 'Warsaw', 52.23, 21.012, 'Europe/Warsaw'],
  ['DK', 'Copenhagen', 55.676, 12.568, 'Europe/Copenhagen'],
  ['NO', 'Oslo', 59.914, 10.752, 'Europe/Oslo'],
  ['BE', 'Brussels', 50.85, 4.352, 'Europe/Brussels'],
  ['GB', 'Birmingham', 52.486, -1.89, 'Europe/London'],
  ['CN', 'Shenzhen', 22.543, 114.058, 'Asia/Shanghai'],
  ['SE', 'Gothenburg', 57.709, 11.975, 'Europe/Stockholm'],
  ['FR', 'Marseille', 43.297, 5.37, 'Europe/Paris'],
  ['US', 'Atlanta', 33.749, -84.388, 'America/New_York'],
  ['JP', 'Osaka', 34.694, 135.502, 'Asia/Tokyo'],
  ['AU', 'Melbourne', -37.814, 144.963, 'Australia/Melbourne'],
  ['CA', 'Vancouver', 49.283, -123.121, 'America/Vancouver'],
  ['IT', 'Rome', 41.903, 12.496, 'Europe/Rome'],
  ['ES', 'Barcelona', 41.385, 2.173, 'Europe/Madrid'],
  ['PL', 'Krakow', 50.065, 19.945, 'Europe/Warsaw'],
  ['NL', 'Utrecht', 52.091, 5.122, 'Europe/Amsterdam'],
  ['CN', 'Hangzhou', 30.274, 120.155, 'Asia/Shanghai'],
  ['GB', 'Leeds', 53.801, -1.549, 'Europe/London'],
  ['FR', 'Toulouse', 43.605, 1.444, 'Europe/Paris'],
  ['FI', 'Helsinki', 60.17, 24.938, 'Europe/Helsinki'],
  ['IE', 'Dublin', 53.35, -6.26, 'Europe/Dublin'],
  ['CZ', 'Prague', 50.075, 14.438, 'Europe/Prague'],
  ['NZ', 'Auckland', -36.848, 174.763, 'Pacific/Auckland'],
];
const firstNames = ['Anna', 'Lukas', 'Emma', 'Noah', 'Mia', 'Liam', 'Sofia', 'Elias', 'Olivia', 'James', 'Lena', 'Paul', 'Chloe', 'Hugo', 'Wei', 'Li', 'Yuki', 'Haruto', 'Ella', 'Oscar', 'Maja', 'Felix', 'Julia', 'Leon', 'Sara', 'Jonas', 'Alice', 'Louis', 'Grace', 'Jack'];
const lastNames = ['Müller', 'Smith', 'Schmidt', 'Johnson', 'Martin', 'Bernard', 'Wang', 'Zhang', 'Jansen', 'de Vries', 'Andersson', 'Nilsson', 'Brown', 'Taylor', 'Fischer', 'Weber', 'Tanaka', 'Sato', 'Rossi', 'García', 'Nowak', 'Hansen', 'Peeters', 'Wilson', 'Dubois', 'Moreau', 'Becker', 'Lee', 'Kim', 'Novak'];
const domains = ['gmail.com', 'outlook.com', 'gmx.de', 'web.de', 'yahoo.com', 'icloud.com', 'qq.com', 'orange.fr'];
/** 20 slots: the share of each action in the log. */
const actions = ['login', 'login', 'login', 'login', 'login', 'login', 'login', 'login', 'command', 'command', 'command', 'command', 'logout', 'register', 'verify', 'profile.update', 'bind', 'share', 'password.forgot', 'unbind'];

const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;
const arr = (xs: string[]) => `array[${xs.map(lit).join(',')}]`;

export interface EndUserSeed {
  users: number;
  logs: number;
  links: number;
}

export async function seedEndUsers(db: pg.Client, opts: { users: number; logs: number; devices: number; timed: (what: string, text: string) => Promise<void> }): Promise<EndUserSeed> {
  const { users: U, logs: L, devices: D, timed } = opts;
  // u(g, salt) ∈ [0, 1): a hash of the number, the same wherever it is computed.
  await db.query(`create function pg_temp.u(g bigint, salt int) returns double precision immutable language sql
    as $$ select (hashint8(g * 64 + salt)::bigint + 2147483648) / 4294967296.0 $$`);
  // The place index of user (or mower) g: power-law skew over the popularity-ordered places.
  await db.query(`create function pg_temp.place(g bigint) returns int immutable language sql
    as $$ select least(${places.length - 1}, floor(${places.length} * power(pg_temp.u(g, 1), 2.2))::int) $$`);
  await db.query(`create function pg_temp.email(g bigint) returns text immutable language sql
    as $$ select lower(replace(replace(replace((${arr(firstNames)})[1 + floor(pg_temp.u(g, 4) * ${firstNames.length})::int] || '.' ||
      (${arr(lastNames)})[1 + floor(pg_temp.u(g, 5) * ${lastNames.length})::int], ' ', ''), 'ü', 'ue'), 'í', 'i')) || g || '@' ||
      (${arr(domains)})[1 + floor(pg_temp.u(g, 6) * ${domains.length})::int] $$`);
  await db.query(`create temp table places (i int primary key, country text, city text, lat double precision, lng double precision, tz text)`);
  await db.query(`insert into places values ${places.map(([c, city, lat, lng, tz], i) => `(${i}, ${lit(c)}, ${lit(city)}, ${lat}, ${lng}, ${lit(tz)})`).join(', ')}`);
  await db.query('analyze places');

  // Secondary indexes go during the load and come back from their own definitions.
  const { rows: indexes } = await db.query<{ indexname: string; indexdef: string }>(
    `select indexname, indexdef from pg_indexes where schemaname = 'public' and tablename in ('app_users', 'user_logs', 'app_device_links', 'device_geo')
     and indexname not in (select conname from pg_constraint)`,
  );
  for (const i of indexes) await db.query(`drop index ${i.indexname}`);

  const step = 250_000;
  for (let from = 1; from <= U; from += step) {
    const to = Math.min(U, from + step - 1);
    await timed(
      'app_users',
      `insert into app_users (id, email, password_hash, name, phone, country, city, home_lat, home_lng, locale, time_zone, status, disabled_reason,
                              device_count, created_at, updated_at, last_login_at, deletion_at)
       select g, pg_temp.email(g), 'unused',
              (${arr(firstNames)})[1 + floor(pg_temp.u(g, 4) * ${firstNames.length})::int] || ' ' || (${arr(lastNames)})[1 + floor(pg_temp.u(g, 5) * ${lastNames.length})::int],
              case when pg_temp.u(g, 7) < 0.6 then '+' || (10000000000 + g) else '' end,
              case when pg_temp.u(g, 2) < 0.01 then '' else p.country end,
              case when pg_temp.u(g, 2) < 0.06 then '' when pg_temp.u(g, 2) < 0.31 then 'Town ' || floor(pg_temp.u(g, 3) * 2000)::int else p.city end,
              case when pg_temp.u(g, 8) < 0.4 then p.lat + (pg_temp.u(g, 9) - 0.5) * 0.4 end,
              case when pg_temp.u(g, 8) < 0.4 then p.lng + (pg_temp.u(g, 10) - 0.5) * 0.4 end,
              case when p.country = 'CN' then 'zh-CN' else 'en-US' end, p.tz,
              case when s < 0.80 then 'active' when s < 0.92 then 'unverified' when s < 0.97 then 'disabled' else 'deletion_pending' end,
              case when s >= 0.92 and s < 0.97 then 'Abuse report' else '' end,
              (g % 10 < 3 and g <= ${D})::int + (g % 100 = 1 and g < ${D})::int + (g % 20 = 5 and g - 5 <= ${D})::int,
              c, c, case when s < 0.80 then c + (now() - c) * pg_temp.u(g, 12) end,
              case when s >= 0.97 then now() + make_interval(days => 1 + (g % 29)) end
       from generate_series(${from}, ${to}) g
       cross join lateral (select pg_temp.u(g, 11) as s, now() - make_interval(secs => (${U} - g) * (94608000.0 / ${U})) as c) x
       join places p on p.i = pg_temp.place(g)`,
    );
  }
  await db.query(`select setval(pg_get_serial_sequence('app_users', 'id'), ${U})`);

  const owners = Math.min(U, D);
  await timed(
    'app_device_links',
    `insert into app_device_links (sn, user_id, role, created_at)
     select 'D' || lpad(g::text, 7, '0'), g, 'owner', now() - make_interval(secs => (${U} - g) * (94608000.0 / ${U}) - 3600) from generate_series(1, ${owners}) g where g % 10 < 3
     union all
     select 'D' || lpad((${D} - g)::text, 7, '0'), g, 'owner', now() - make_interval(days => g % 300) from generate_series(1, ${Math.min(U, D - 1)}) g where g % 100 = 1
     union all
     select 'D' || lpad((g - 5)::text, 7, '0'), g, 'shared', now() - make_interval(days => g % 200) from generate_series(6, ${Math.min(U, D + 5)}) g where g % 20 = 5`,
  );
  // Every located mower coded where its number's user lives (same lat/lng as device_state, so the
  // geocoding job finds nothing to do). The server's job may have coded a few meanwhile: replaced.
  await timed(
    'device_geo',
    `insert into device_geo (sn, lat, lng, country, city, city_lat, city_lng)
     select s.sn, s.lat, s.lng, p.country, p.city, p.lat, p.lng
     from generate_series(1, ${D}) g join device_state s on s.sn = 'D' || lpad(g::text, 7, '0') join places p on p.i = pg_temp.place(g)
     where s.lat is not null and s.lng is not null
     on conflict (sn) do update set lat = excluded.lat, lng = excluded.lng, country = excluded.country, city = excluded.city,
       city_lat = excluded.city_lat, city_lng = excluded.city_lng`,
  );

  const logStep = 1_000_000;
  const seconds180 = 180 * 86_400;
  for (let from = 1; from <= L; from += logStep) {
    const to = Math.min(L, from + logStep - 1);
    await timed(
      'user_logs',
      `insert into user_logs (id, at, user_id, email, action, result, sn, ip, country, detail)
       select k, now() - make_interval(secs => (${L} - k) * (${seconds180}.0 / ${L})),
              case when nouser then null else usr end, case when nouser then 'someone' || k || '@example.com' else pg_temp.email(usr) end,
              a, case when nouser or r < 0.03 or (a = 'login' and r < 0.09) then 'failure' else 'success' end,
              case when a in ('command', 'bind', 'unbind', 'share') and usr <= ${D} then 'D' || lpad(usr::text, 7, '0') else '' end,
              '10.' || (k % 250) || '.' || (usr % 250) || '.' || (usr % 199 + 1), p.country,
              case when a = 'command' then '{"name":"ping"}'::jsonb else '{}'::jsonb end
       from (select k, 1 + floor(random() * ${U})::int as usr, random() as r, random() < 0.02 as nouser,
                    (${arr(actions)})[1 + floor(random() * ${actions.length})::int] as a
             from generate_series(${from}, ${to}) k) x
       join places p on p.i = pg_temp.place(usr)`,
    );
  }
  if (L > 0) await db.query(`select setval(pg_get_serial_sequence('user_logs', 'id'), ${L})`);

  for (const i of indexes) await timed('indexes', i.indexdef);
  const { rows } = await db.query<{ n: number }>('select count(*)::int as n from app_device_links');
  return { users: U, logs: L, links: rows[0]!.n };
}
