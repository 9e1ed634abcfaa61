import { and, eq, isNull } from 'drizzle-orm';
import { eventSubject } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { devices } from '../devices/devices.sql.ts';
import { emit } from '../events/emit.ts';

export const DEVICE_FLAGGED = 'device.flagged';

/**
 * The `device.flagged` event: a device stayed above ten times its ingest limits for the abuse
 * window (gateway/ingest-limits.ts) and was disconnected. The flag is persisted on the device; the
 * first time (the flag was clear) the event is written with the flag, and the bell tells every
 * active staff member, folded into an unread
 * one, so a device that keeps misbehaving after reconnecting does not flood the message box.
 * Answers whether the device was newly flagged.
 */
export async function emitDeviceFlagged(
  db: Db,
  sn: string,
  observed: { rate: number; limit: number },
  log: { warn(o: object, m: string): void },
): Promise<boolean> {
  const at = new Date();
  const flagged = await db.transaction(async (tx) => {
    const rows = await tx
      .update(devices)
      .set({ flaggedAt: at })
      .where(and(eq(devices.sn, sn), isNull(devices.flaggedAt)))
      .returning({ sn: devices.sn });
    if (rows.length > 0) await emit(tx, { type: 'device.flagged', subject: eventSubject.device(sn), payload: { sn, rate: observed.rate, limit: observed.limit, at: at.toISOString() } });
    return rows.length > 0;
  });
  log.warn({ event: DEVICE_FLAGGED, sn, rate: observed.rate, limit: observed.limit, newly: flagged }, 'device stayed far above its ingest limits: disconnected');
  return flagged;
}
