import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { and, count, eq, gt, inArray, ne, sql } from 'drizzle-orm';
import type { AppDevice, DeviceState, MowerActivity } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { isUniqueViolation } from '../db/helpers.ts';
import { BATTERY_UNKNOWN, deviceState, devices, NEVER_SEEN, seenAt } from '../devices/devices.sql.ts';
import { AppError } from '../http/envelope.ts';
import { productModels } from '../product/product.sql.ts';
import { appDeviceLinks, appUsers, devicePairingCodes, userLogs } from './end-users.sql.ts';
import { ownerChanged } from './end-user-events.ts';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Wrong pairing codes allowed per SN and per user within the window before binds are refused. */
export const PAIRING_FAILURES_PER_SN = 5;
export const PAIRING_FAILURES_PER_USER = 10;
export const PAIRING_WINDOW_MS = 15 * 60_000;

// Crockford's base32: no I, L, O, U, so a label cannot be misread.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const pairingHash = (sn: string, code: string) => createHash('sha256').update(`${sn}:${code}`).digest('hex');

/** A new pairing code (50 bits, shown `XXXXX-XXXXX`) for each SN; only salted hashes are stored. */
export async function issuePairingCodes(db: Db | Tx, sns: string[]): Promise<Map<string, string>> {
  const codes = new Map<string, string>();
  for (const sn of sns) {
    let code = '';
    for (let i = 0; i < 10; i++) code += ALPHABET[randomInt(ALPHABET.length)];
    codes.set(sn, `${code.slice(0, 5)}-${code.slice(5)}`);
  }
  const rows = [...codes].map(([sn, code]) => ({ sn, codeHash: pairingHash(sn, code.replace('-', '')), issuedAt: new Date() }));
  for (let i = 0; i < rows.length; i += 1000) {
    await db
      .insert(devicePairingCodes)
      .values(rows.slice(i, i + 1000))
      .onConflictDoUpdate({ target: devicePairingCodes.sn, set: { codeHash: sql`excluded.code_hash`, issuedAt: sql`excluded.issued_at` } });
  }
  return codes;
}

/** Keeps `device_count` (owned + shared) of these users equal to their links. */
async function recount(db: Db | Tx, userIds: number[]): Promise<void> {
  if (userIds.length === 0) return;
  await db
    .update(appUsers)
    .set({ deviceCount: sql`(select count(*)::int from ${appDeviceLinks} where ${appDeviceLinks.userId} = ${appUsers.id})` })
    .where(inArray(appUsers.id, [...new Set(userIds)]));
}

async function recentFailures(db: Db, where: ReturnType<typeof eq>): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(userLogs)
    .where(and(where, eq(userLogs.action, 'bind'), eq(userLogs.result, 'failure'), gt(userLogs.at, new Date(Date.now() - PAIRING_WINDOW_MS))));
  return row?.n ?? 0;
}

/** The live view of the caller's mowers (or one of them). */
export async function appDevices(db: Db, userId: number, sn?: string): Promise<AppDevice[]> {
  const rows = await db
    .select({
      sn: appDeviceLinks.sn,
      role: appDeviceLinks.role,
      boundAt: appDeviceLinks.createdAt,
      modelCode: productModels.code,
      modelName: productModels.name,
      online: deviceState.online,
      state: deviceState.state,
      activity: deviceState.activity,
      battery: deviceState.battery,
      lat: deviceState.lat,
      lng: deviceState.lng,
      lastSeenAt: seenAt,
    })
    .from(appDeviceLinks)
    .innerJoin(devices, eq(devices.sn, appDeviceLinks.sn))
    .innerJoin(productModels, eq(productModels.id, devices.modelId))
    .leftJoin(deviceState, eq(deviceState.sn, appDeviceLinks.sn))
    .where(and(eq(appDeviceLinks.userId, userId), sn ? eq(appDeviceLinks.sn, sn) : undefined))
    .orderBy(appDeviceLinks.createdAt, appDeviceLinks.sn);
  if (rows.length === 0) return [];
  const others = await db
    .select({ sn: appDeviceLinks.sn, role: appDeviceLinks.role, email: appUsers.email })
    .from(appDeviceLinks)
    .innerJoin(appUsers, eq(appUsers.id, appDeviceLinks.userId))
    .where(and(inArray(appDeviceLinks.sn, rows.map((r) => r.sn)), ne(appDeviceLinks.userId, userId)))
    .orderBy(appUsers.email);
  const [me] = await db.select({ email: appUsers.email }).from(appUsers).where(eq(appUsers.id, userId));
  return rows.map((r) => {
    const online = r.online ?? false;
    return {
      sn: r.sn,
      modelCode: r.modelCode,
      modelName: r.modelName,
      role: r.role,
      ownerEmail: r.role === 'owner' ? (me?.email ?? '') : (others.find((o) => o.sn === r.sn && o.role === 'owner')?.email ?? ''),
      sharedWith: r.role === 'owner' ? others.filter((o) => o.sn === r.sn && o.role === 'shared').map((o) => o.email) : [],
      boundAt: r.boundAt.toISOString(),
      online,
      state: (online ? (r.state ?? 'idle') : 'offline') as DeviceState,
      activity: (r.activity ?? 'unknown') as MowerActivity,
      battery: r.battery === null || r.battery === BATTERY_UNKNOWN ? null : r.battery,
      position: r.lat === null || r.lng === null ? null : { lat: r.lat, lng: r.lng },
      lastSeenAt: !r.lastSeenAt || r.lastSeenAt.getTime() === NEVER_SEEN.getTime() ? null : r.lastSeenAt.toISOString(),
    };
  });
}

async function oneDevice(db: Db, userId: number, sn: string): Promise<AppDevice> {
  const [device] = await appDevices(db, userId, sn);
  if (!device) throw new AppError('APP_DEVICE_NOT_FOUND', { sn });
  return device;
}

/**
 * Makes the caller the owner. Wrong codes are counted from the user log (failed binds) per SN and
 * per user; an unknown SN and a wrong code answer alike, so SNs cannot be probed.
 */
export async function bind(ctx: AppContext, user: { id: number; email: string }, sn: string, code: string): Promise<AppDevice> {
  if ((await recentFailures(ctx.db, eq(userLogs.sn, sn))) >= PAIRING_FAILURES_PER_SN) throw new AppError('RATE_LIMITED');
  if ((await recentFailures(ctx.db, eq(userLogs.userId, user.id))) >= PAIRING_FAILURES_PER_USER) throw new AppError('RATE_LIMITED');
  const [row] = await ctx.db
    .select({ codeHash: devicePairingCodes.codeHash, enabled: devices.enabled })
    .from(devicePairingCodes)
    .innerJoin(devices, eq(devices.sn, devicePairingCodes.sn))
    .where(eq(devicePairingCodes.sn, sn));
  const given = Buffer.from(pairingHash(sn, code), 'hex');
  const expected = Buffer.from(row?.codeHash ?? pairingHash(sn, '-'), 'hex');
  if (!row || !row.enabled || !timingSafeEqual(given, expected)) throw new AppError('PAIRING_INVALID');
  const [owner] = await ctx.db
    .select({ userId: appDeviceLinks.userId })
    .from(appDeviceLinks)
    .where(and(eq(appDeviceLinks.sn, sn), eq(appDeviceLinks.role, 'owner')));
  if (owner && owner.userId !== user.id) throw new AppError('DEVICE_ALREADY_BOUND');
  if (!owner) {
    try {
      await ctx.db.transaction(async (tx) => {
        // A user the mower was shared with becomes its owner: one link per user and mower.
        await tx.delete(appDeviceLinks).where(and(eq(appDeviceLinks.sn, sn), eq(appDeviceLinks.userId, user.id)));
        await tx.insert(appDeviceLinks).values({ sn, userId: user.id, role: 'owner' });
        // The registry's owner column (device list, its filter) names the owner's account.
        await tx.update(devices).set({ owner: user.email, updatedAt: new Date() }).where(eq(devices.sn, sn));
        await recount(tx, [user.id]);
        await ownerChanged(tx, 'device.bound', user.id, [sn]);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('DEVICE_ALREADY_BOUND');
      throw err;
    }
  }
  return oneDevice(ctx.db, user.id, sn);
}

/** The owner frees the mower (its shares end with it); a shared user only leaves it. */
export async function unbind(db: Db, userId: number, sn: string): Promise<'owner' | 'shared'> {
  const [link] = await db.select().from(appDeviceLinks).where(and(eq(appDeviceLinks.sn, sn), eq(appDeviceLinks.userId, userId)));
  if (!link) throw new AppError('APP_DEVICE_NOT_FOUND', { sn });
  await db.transaction(async (tx) => {
    if (link.role === 'owner') {
      const removed = await tx.delete(appDeviceLinks).where(eq(appDeviceLinks.sn, sn)).returning({ userId: appDeviceLinks.userId });
      await tx.update(devices).set({ owner: '', updatedAt: new Date() }).where(eq(devices.sn, sn));
      await recount(tx, removed.map((r) => r.userId));
      await ownerChanged(tx, 'device.unbound', userId, [sn]);
    } else {
      await tx.delete(appDeviceLinks).where(and(eq(appDeviceLinks.sn, sn), eq(appDeviceLinks.userId, userId)));
      await recount(tx, [userId]);
    }
  });
  return link.role;
}

async function requireOwner(db: Db, userId: number, sn: string) {
  const [link] = await db.select().from(appDeviceLinks).where(and(eq(appDeviceLinks.sn, sn), eq(appDeviceLinks.userId, userId)));
  if (!link) throw new AppError('APP_DEVICE_NOT_FOUND', { sn });
  if (link.role !== 'owner') throw new AppError('NOT_DEVICE_OWNER');
}

async function activeUser(db: Db, email: string) {
  const [target] = await db
    .select({ id: appUsers.id, name: appUsers.name, locale: appUsers.locale, email: appUsers.email })
    .from(appUsers)
    .where(and(eq(appUsers.email, email.toLowerCase()), inArray(appUsers.status, ['active', 'deletion_pending'])));
  return target;
}

export async function share(ctx: AppContext, owner: { id: number; email: string; name: string }, sn: string, email: string) {
  await requireOwner(ctx.db, owner.id, sn);
  if (email.toLowerCase() === owner.email) throw new AppError('SHARE_SELF');
  const target = await activeUser(ctx.db, email);
  if (!target) throw new AppError('SHARE_TARGET_UNKNOWN');
  const added = await ctx.db.transaction(async (tx) => {
    const rows = await tx.insert(appDeviceLinks).values({ sn, userId: target.id, role: 'shared' }).onConflictDoNothing().returning({ sn: appDeviceLinks.sn });
    await recount(tx, [target.id]);
    return rows.length > 0;
  });
  return { device: await oneDevice(ctx.db, owner.id, sn), target, added };
}

export async function revoke(ctx: AppContext, ownerId: number, sn: string, email: string) {
  await requireOwner(ctx.db, ownerId, sn);
  const [target] = await ctx.db.select({ id: appUsers.id }).from(appUsers).where(eq(appUsers.email, email.toLowerCase()));
  const removed = target
    ? await ctx.db
        .delete(appDeviceLinks)
        .where(and(eq(appDeviceLinks.sn, sn), eq(appDeviceLinks.userId, target.id), eq(appDeviceLinks.role, 'shared')))
        .returning({ userId: appDeviceLinks.userId })
    : [];
  if (removed.length === 0) throw new AppError('SHARE_TARGET_UNKNOWN');
  await recount(ctx.db, [target!.id]);
  return oneDevice(ctx.db, ownerId, sn);
}

/** The caller's link to a mower, or APP_DEVICE_NOT_FOUND. */
export async function requireLink(db: Db, userId: number, sn: string): Promise<void> {
  const [link] = await db.select({ sn: appDeviceLinks.sn }).from(appDeviceLinks).where(and(eq(appDeviceLinks.sn, sn), eq(appDeviceLinks.userId, userId)));
  if (!link) throw new AppError('APP_DEVICE_NOT_FOUND', { sn });
}

/** Unbinds every mower of an account being erased (owned ones are freed, shares end). */
export async function unbindAll(tx: Tx, userId: number): Promise<string[]> {
  const links = await tx.select().from(appDeviceLinks).where(eq(appDeviceLinks.userId, userId));
  const owned = links.filter((l) => l.role === 'owner').map((l) => l.sn);
  const affected = [userId];
  if (owned.length > 0) {
    const removed = await tx.delete(appDeviceLinks).where(inArray(appDeviceLinks.sn, owned)).returning({ userId: appDeviceLinks.userId });
    affected.push(...removed.map((r) => r.userId));
    await tx.update(devices).set({ owner: '', updatedAt: new Date() }).where(inArray(devices.sn, owned));
    await ownerChanged(tx, 'device.unbound', userId, owned);
  }
  await tx.delete(appDeviceLinks).where(eq(appDeviceLinks.userId, userId));
  await recount(tx, affected);
  return links.map((l) => l.sn);
}
