import type { TicketDeviceSnapshot } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { deviceDetail } from '../devices/device-detail.service.ts';
import { recentEvents } from '../devices/events.service.ts';
import { recentRuns } from '../tasks/runs.service.ts';

const DAY_MS = 86_400_000;

/**
 * The mower as it was when the ticket was filed: model, firmware, online state, battery, and the
 * exception events and task runs of the 24 h before (events still active count whenever they began).
 * Read through the devices and tasks services, so the snapshot shows what their pages show.
 */
export async function deviceSnapshot(db: Db, sn: string, now = new Date()): Promise<TicketDeviceSnapshot> {
  const since = now.getTime() - DAY_MS;
  const device = await deviceDetail(db, sn, 'en-US');
  const events = (await recentEvents(db, sn, 'en-US', 50)).filter((e) => Date.parse(e.lastAt) >= since || e.status === 'active');
  const runs = (await recentRuns(db, sn, 50)).filter((r) => Date.parse(r.startedAt) >= since);
  return {
    sn,
    modelCode: device.modelCode,
    modelName: device.modelName,
    firmware: device.firmware ?? '',
    online: device.online,
    battery: device.battery,
    state: device.state,
    lastSeenAt: device.lastSeenAt,
    takenAt: now.toISOString(),
    events: events.map((e) => ({ id: e.id, code: e.code, severity: e.severity, status: e.status, message: e.message, occurrences: e.occurrences, firstAt: e.firstAt, lastAt: e.lastAt })),
    runs: runs.map((r) => ({
      id: r.id,
      runId: r.runId,
      status: r.status,
      result: r.result,
      faultCode: r.faultCode,
      progressPercent: r.progressPercent,
      areaM2: r.areaM2,
      startedAt: r.startedAt,
      endedAt: r.endedAt,
    })),
  };
}
