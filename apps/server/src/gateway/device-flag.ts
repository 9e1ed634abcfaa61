import { and, eq, isNull } from 'drizzle-orm';
import { messageKinds } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { devices } from '../devices/devices.sql.ts';
import { createNotifier } from '../messages/notify.ts';

export const DEVICE_FLAGGED = 'device.flagged';

/**
 * The `device.flagged` event: a device stayed above ten times its ingest limits for the abuse
 * window (gateway/ingest-limits.ts) and was disconnected. The flag is persisted on the device; the
 * first time (the flag was clear) every active staff member gets a notice, folded into an unread
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
  const flagged = await db
    .update(devices)
    .set({ flaggedAt: at })
    .where(and(eq(devices.sn, sn), isNull(devices.flaggedAt)))
    .returning({ sn: devices.sn });
  log.warn({ event: DEVICE_FLAGGED, sn, rate: observed.rate, limit: observed.limit, newly: flagged.length > 0 }, 'device stayed far above its ingest limits: disconnected');
  if (flagged.length === 0) return false;
  await createNotifier(db).foldToStaff('notice', messageKinds.deviceFlagged, {
    sn,
    at: at.toISOString(),
    rate: String(Math.round(observed.rate)),
    limit: String(observed.limit),
  });
  return true;
}
