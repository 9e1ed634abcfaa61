import type { DeviceEventNote } from './device-event-notify.ts';
import { notifyDeviceEvents } from './device-event-notify.ts';
import type { AppContext } from '../context.ts';
import { onceById } from '../events/once.ts';
import type { FeatureModule } from '../module.ts';
import { messagesRoutes } from './messages.routes.ts';

const BELL = 'bell';

/**
 * The message box: its routes, and the bell as a subscriber of the event stream, so every notice
 * comes from what happened rather than from a call inside another feature.
 */
export function messagesModule(ctx: AppContext): FeatureModule {
  return {
    name: 'messages',
    routes: (scope) => messagesRoutes(scope, ctx),
    subscribes: [
      {
        name: BELL,
        types: ['device.event.raised'],
        // Each staff member hears about the severities and codes they chose; bursts fold per minute.
        handle: onceById(ctx.db, BELL, async (tx, event) => {
          if (event.type !== 'device.event.raised') return;
          const e = event.payload as { sn: string; code: string; severity: string; message: string; at: string };
          const note: DeviceEventNote = { sn: e.sn, code: e.code, severity: e.severity, message: e.message, lastAt: new Date(e.at) };
          await notifyDeviceEvents(tx, [note]);
        }),
      },
    ],
  };
}
