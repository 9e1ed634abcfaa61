import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { emit, outboxInsert } from '../events/emit.ts';
import { deviceEvents, deviceState, devices, LAST_SEEN_RESOLUTION_S, NEVER_SEEN } from '../devices/devices.sql.ts';
import type { Counters } from './counters.ts';
import type { Received, WriteBatch } from './ingest.ts';
import type { DeviceStatus, EventPayload, EventSeverity, Telemetry } from '@mowerline/contract';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface NewEvent {
  id: number;
  sn: string;
  code: string;
  severity: string;
  message: string;
  lastAt: Date;
}

const CHUNK = 1000;

function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Writes one ingest batch in one transaction: a multi-row INSERT into the history, a multi-row
 * UPSERT of the latest state, presence changes and events, with the domain events these changes
 * cause (docs/events.md) written by the same statements. Messages of unknown or disabled SNs are
 * dropped (the broker should already have refused them).
 */
export function createBatchWriter(db: Db, counters: Counters, opts: { clockSkewMs: number }): WriteBatch {
  return async (batch) => {
    const known = await enabledSns(db, [...batch.telemetry, ...batch.statuses, ...batch.events].map((m) => m.sn));
    const keep = <T>(items: Received<T>[]) => items.filter((m) => known.has(m.sn));
    const telemetry = keep(batch.telemetry);
    const statuses = keep(batch.statuses);
    const events = keep(batch.events);
    const unknown = batch.telemetry.length + batch.statuses.length + batch.events.length - telemetry.length - statuses.length - events.length;
    if (unknown > 0) counters.inc('dropped.unknownDevice', unknown);

    // Presence first: each change is ordered by its receive time, and telemetry then only
    // revives a device whose last presence change is older than the telemetry.
    await db.transaction(async (tx) => {
      await writeStatuses(tx, statuses);
      await writeTelemetry(tx, telemetry, opts.clockSkewMs);
      await writeEvents(tx, events);
    });
    counters.inc('written.telemetry', telemetry.length);
    const ahead = telemetry.filter((m) => isAhead(m, opts.clockSkewMs)).length;
    if (ahead > 0) counters.inc('clock.ahead', ahead);
    counters.inc('written.status', statuses.length);
    counters.inc('written.events', events.length);
  };
}

async function enabledSns(db: Db, sns: string[]): Promise<Set<string>> {
  const result = await db.execute(sql`select sn from ${devices} where sn = any(${sql.param([...new Set(sns)])}::text[]) and enabled`);
  return new Set((result as unknown as { rows: Array<{ sn: string }> }).rows.map((r) => r.sn));
}

/**
 * Device clocks are wrong in the field. A `ts` more than the accepted skew ahead of the server's
 * receive time is not believed: the row is placed at the receive time (`at`) and the device's
 * claim is kept as data (`device_ts`, else null). Older times are kept: a mower that was offline
 * sends what it buffered. The latest state follows receive order in any case, so no device time
 * can freeze it (docs/device-protocol.md, "Device time").
 */
const isAhead = (m: Received<Telemetry>, clockSkewMs: number) => m.body.ts > m.receivedAt.getTime() + clockSkewMs;

/**
 * Column arrays for `unnest`: one parameter per column whatever the batch size. Profiling the ingest
 * (bench/ingest.ts) showed drizzle building multi-row VALUES lists (one parameter per cell) as most
 * of the server's CPU; arrays keep the statement text and the parameter count constant. Times go as
 * epoch milliseconds (float8, exact to the microsecond), converted in SQL: a Date and an ISO string
 * per time per message were a large part of the writer's own time and of its garbage.
 */
function unnestTelemetry(items: Received<Telemetry>[], clockSkewMs: number) {
  const n = items.length;
  const sn = new Array<string>(n);
  const at = new Array<number>(n);
  const deviceTs = new Array<number | null>(n);
  const receivedAt = new Array<number>(n);
  const state = new Array<string>(n);
  const activity = new Array<string>(n);
  const errorCode = new Array<string | null>(n);
  const battery = new Array<number>(n);
  const lat = new Array<number | null>(n);
  const lng = new Array<number | null>(n);
  const heading = new Array<number | null>(n);
  const bladeRpm = new Array<number>(n);
  const rssi = new Array<number>(n);
  const firmware = new Array<string>(n);
  // One pass, no intermediate objects.
  for (let i = 0; i < n; i++) {
    const m = items[i]!;
    const b = m.body;
    const received = m.receivedAt.getTime();
    const ahead = isAhead(m, clockSkewMs);
    sn[i] = m.sn;
    at[i] = ahead ? received : b.ts;
    deviceTs[i] = ahead ? b.ts : null;
    receivedAt[i] = received;
    state[i] = b.state;
    activity[i] = b.activity;
    errorCode[i] = b.errorCode;
    battery[i] = b.battery;
    lat[i] = b.position?.lat ?? null;
    lng[i] = b.position?.lng ?? null;
    heading[i] = b.position?.heading ?? null;
    bladeRpm[i] = b.bladeRpm;
    rssi[i] = b.rssi;
    firmware[i] = b.firmware;
  }
  const p = sql.param;
  return sql`unnest(${p(sn)}::text[], ${p(at)}::float8[], ${p(receivedAt)}::float8[], ${p(state)}::text[], ${p(activity)}::text[],
    ${p(errorCode)}::text[], ${p(battery)}::smallint[], ${p(lat)}::float8[], ${p(lng)}::float8[], ${p(heading)}::real[], ${p(bladeRpm)}::int[],
    ${p(rssi)}::smallint[], ${p(firmware)}::text[], ${p(deviceTs)}::float8[]) with ordinality
    as u(sn, at_ms, received_ms, state, activity, error_code, battery, lat, lng, heading, blade_rpm, rssi, firmware, device_ms, ord)`;
}

/** A timestamptz as the catalogue's ISO time, in SQL. */
const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The presence and state of the batch's devices as the statement found them (its snapshot). */
const PRESENCE_BEFORE = sql.raw(`before as (select s.sn, s.online, s.state from device_state s where s.sn in (select sn from u))`);

/**
 * History rows and the latest state of each device in one statement per chunk: the rows are
 * serialized and sent once, not once for each table. The state takes each device's last message
 * of the chunk (items are in receive order); a later chunk of the same batch then updates it again.
 */
async function writeTelemetry(tx: Tx, items: Received<Telemetry>[], clockSkewMs: number) {
  if (items.length === 0) return;
  // Telemetry received after the last presence change is proof of life (docs/device-protocol.md).
  const live = sql.raw(`(device_state.online_changed_at is null or device_state.online_changed_at < excluded.last_seen_at)`);
  for (const part of chunks(items)) {
    const changed = sql`u as (
        select u.sn, to_timestamp(u.at_ms / 1000) as at, to_timestamp(u.received_ms / 1000) as received_at, u.state, u.activity, u.error_code, u.battery,
          u.lat, u.lng, u.heading, u.blade_rpm, u.rssi, u.firmware, to_timestamp(u.device_ms / 1000) as device_ts, u.ord
        from ${unnestTelemetry(part, clockSkewMs)}
      ), history as (
        insert into telemetry_history (sn, at, received_at, state, activity, error_code, battery, lat, lng, heading, blade_rpm, rssi, firmware, device_ts)
        select sn, at, received_at, state, activity, error_code, battery, lat, lng, heading, blade_rpm, rssi, firmware, device_ts from u
        on conflict do nothing
      ), ${PRESENCE_BEFORE}, st as (
      insert into device_state (sn, online, online_changed_at, last_seen_at, telemetry_at, telemetry_received_at, state, activity, error_code, battery, lat, lng, heading, blade_rpm, rssi, firmware)
      select distinct on (u.sn) u.sn, true, u.received_at, u.received_at, u.at, u.received_at, u.state, u.activity, u.error_code, u.battery, u.lat, u.lng, u.heading, u.blade_rpm, u.rssi, u.firmware
      from u order by u.sn, u.ord desc
      on conflict (sn) do update set
        online = case when ${live} then true else device_state.online end,
        online_changed_at = case when not device_state.online and ${live} then excluded.last_seen_at else device_state.online_changed_at end,
        -- Revived without its online status: the connection is unknown, so its will must apply.
        conn_id = case when not device_state.online and ${live} then '' else device_state.conn_id end,
        -- Coarse on purpose (devices.sql.ts): within LAST_SEEN_RESOLUTION_S the row's indexed
        -- columns stay as they are, so the update is HOT; telemetry_received_at keeps the exact time.
        last_seen_at = case when device_state.last_seen_at < excluded.last_seen_at - make_interval(secs => ${LAST_SEEN_RESOLUTION_S})
          then excluded.last_seen_at else device_state.last_seen_at end,
        telemetry_at = excluded.telemetry_at, telemetry_received_at = excluded.telemetry_received_at, state = excluded.state, activity = excluded.activity, error_code = excluded.error_code,
        battery = excluded.battery, lat = excluded.lat, lng = excluded.lng, heading = excluded.heading, blade_rpm = excluded.blade_rpm,
        rssi = excluded.rssi, firmware = excluded.firmware
      -- Receive order, not device time: a device clock that jumped ahead must not freeze the state.
      where device_state.telemetry_received_at is null or device_state.telemetry_received_at <= excluded.telemetry_received_at
      returning sn, online, state, telemetry_received_at as at
      )`;
    // Its consequences as events, from the rows this statement changed: revived, or a new state.
    await tx.execute(
      outboxInsert(
        sql.raw(`select 'device.connected' as type, 1 as version, st.sn as subject, jsonb_build_object('sn', st.sn, 'at', ${iso('st.at')}) as payload, 1 as ord
          from st left join before b on b.sn = st.sn where st.online and not coalesce(b.online, false)
          union all
          select 'device.state_changed', 1, st.sn, jsonb_build_object('sn', st.sn, 'from', b.state, 'to', st.state, 'at', ${iso('st.at')}), 2
          from st left join before b on b.sn = st.sn where b.state is distinct from st.state`),
        changed,
      ),
    );
  }
}

/**
 * Presence in receive order. A device's statuses in one batch are applied in rounds (its first
 * status in round one, its second in round two...), so each round is one multi-row UPSERT.
 */
async function writeStatuses(tx: Tx, items: Received<DeviceStatus>[]) {
  const rounds: Received<DeviceStatus>[][] = [];
  const perSn = new Map<string, number>();
  for (const item of items) {
    const n = perSn.get(item.sn) ?? 0;
    perSn.set(item.sn, n + 1);
    (rounds[n] ??= []).push(item);
  }
  // Newer than the last change, and an offline only for the connection that is current: the late
  // will of a replaced connection is ignored.
  const applies = sql`((${deviceState.onlineChangedAt} is null or ${deviceState.onlineChangedAt} <= excluded.online_changed_at)
    and (excluded.online or ${deviceState.connId} = '' or ${deviceState.connId} = excluded.conn_id))`;
  for (const round of rounds) {
    for (const part of chunks(round)) {
      const upsert = tx
        .insert(deviceState)
        .values(
          part.map(({ sn, receivedAt, body }) => ({
            sn,
            online: body.online,
            onlineChangedAt: receivedAt,
            connId: body.conn,
            lastSeenAt: body.online ? receivedAt : NEVER_SEEN,
          })),
        )
        .onConflictDoUpdate({
          target: deviceState.sn,
          set: {
            online: sql`case when ${applies} then excluded.online else ${deviceState.online} end`,
            onlineChangedAt: sql`case when ${applies} then excluded.online_changed_at else ${deviceState.onlineChangedAt} end`,
            connId: sql`case when excluded.online then excluded.conn_id else ${deviceState.connId} end`,
            lastSeenAt: sql`greatest(${deviceState.lastSeenAt}, excluded.last_seen_at)`,
          },
          // Otherwise an `online` that arrived after telemetry revived the device still names its connection.
          setWhere: sql`${applies} or (excluded.online and ${deviceState.connId} = '')`,
        })
        .returning({ sn: deviceState.sn, online: deviceState.online, onlineChangedAt: deviceState.onlineChangedAt });
      // The presence changes as events, in the upsert's own statement.
      const sns = sql.param(part.map((m) => m.sn));
      await tx.execute(
        outboxInsert(
          sql.raw(`select case when st.online then 'device.connected' else 'device.disconnected' end as type, 1 as version, st.sn as subject,
            jsonb_build_object('sn', st.sn, 'at', ${iso('st.online_changed_at')}) as payload, 1 as ord
            from st left join before b on b.sn = st.sn where st.online <> coalesce(b.online, false)`),
          sql`before as (select s.sn, s.online from device_state s where s.sn = any(${sns}::text[])), st as (${upsert.getSQL()})`,
        ),
      );
    }
  }
}

/** Events fold into the open event of the same device and code (one UPSERT per batch). */
async function writeEvents(tx: Tx, items: Received<EventPayload>[]): Promise<NewEvent[]> {
  if (items.length === 0) return [];
  const groups = new Map<string, Received<EventPayload>[]>();
  for (const item of items) {
    const key = `${item.sn}\u0000${item.body.code}`;
    const list = groups.get(key);
    if (list) list.push(item);
    else groups.set(key, [item]);
  }
  // Device clocks can run ahead: an event is never placed after the moment it was received.
  const when = (m: Received<EventPayload>) => new Date(Math.min(m.body.ts, m.receivedAt.getTime()));
  const rows = [...groups.values()].map((group) => {
    const first = group[0]!;
    const last = group[group.length - 1]!;
    return {
      sn: last.sn,
      code: last.body.code,
      severity: last.body.severity,
      message: last.body.message,
      context: last.body.context,
      occurrences: new Set(group.map((m) => m.body.id)).size,
      lastDeviceEventId: last.body.id,
      firstAt: when(first),
      lastAt: when(last),
    };
  });
  const created: NewEvent[] = [];
  for (const part of chunks(rows)) {
    const result = await tx
      .insert(deviceEvents)
      .values(part)
      .onConflictDoUpdate({
        target: [deviceEvents.sn, deviceEvents.code],
        targetWhere: sql`status <> 'cleared'`,
        set: {
          occurrences: sql`${deviceEvents.occurrences} + case when excluded.last_device_event_id = ${deviceEvents.lastDeviceEventId} then 0 else excluded.occurrences end`,
          lastAt: sql`greatest(${deviceEvents.lastAt}, excluded.last_at)`,
          severity: sql`excluded.severity`,
          message: sql`excluded.message`,
          context: sql`excluded.context`,
          lastDeviceEventId: sql`excluded.last_device_event_id`,
        },
      })
      .returning({
        id: deviceEvents.id,
        sn: deviceEvents.sn,
        code: deviceEvents.code,
        severity: deviceEvents.severity,
        message: deviceEvents.message,
        lastAt: deviceEvents.lastAt,
        inserted: sql<boolean>`(xmax = 0)`,
      });
    for (const r of result) if (r.inserted) created.push(r);
  }
  // Only an event that was not already open is news; a repeat folds silently.
  await emit(
    tx,
    ...created.map((e) => ({
      type: 'device.event.raised' as const,
      subject: e.sn,
      payload: { sn: e.sn, eventId: e.id, code: e.code, severity: e.severity as EventSeverity, message: e.message, at: e.lastAt.toISOString() },
    })),
  );
  return created;
}

