import { eventDeliveryApi } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { serve } from '../http/endpoints.ts';
import type { FeatureModule } from '../module.ts';
import { Dispatcher, type Subscriber } from './dispatcher.ts';
import { trimEvents } from './retention.ts';
import { subscriberStatus } from './status.ts';

export const EVENTS_CHANNEL = 'event_deliveries';
/** How long a request waits for its events' `beforeAnswer` subscribers before it answers anyway. */
const SETTLE_BEFORE_ANSWER_MS = 3_000;

/**
 * The event spine of one node: delivers the outbox to every module's subscribers, trims what is
 * past the retention, and shows admins the delivery status. It starts after every other module (their
 * subscribers may use what those start) and stops first, finishing the deliveries in flight.
 */
export function eventsModule(
  ctx: AppContext,
  subscribers: () => readonly Subscriber[],
): FeatureModule & { start(): Promise<void>; stop(): Promise<void>; settle(ids: readonly string[]): Promise<boolean> } {
  let dispatcher: Dispatcher | undefined;
  let unlisten: (() => Promise<void>) | undefined;
  let trimming: Promise<unknown> | undefined;
  const timers: NodeJS.Timeout[] = [];

  const trim = () => {
    if (trimming) return;
    trimming = trimEvents(ctx.db, ctx.config.eventRetentionDays)
      .catch((err: unknown) => ctx.log.warn({ err }, 'event retention failed'))
      .finally(() => (trimming = undefined));
  };

  return {
    name: 'events',
    routes(scope) {
      serve(scope, ctx, eventDeliveryApi, { status: async () => ({ subscribers: await subscriberStatus(ctx.db) }) });
    },
    async start() {
      const d = new Dispatcher(ctx.db, subscribers(), {
        nodeId: ctx.gateway.nodeId,
        leaseMs: ctx.config.eventLeaseMs,
        pollMs: 5_000,
        retryBaseMs: 1_000,
        retryMaxMs: 300_000,
        claimBatch: 100,
        log: ctx.log,
      });
      dispatcher = d;
      await d.start();
      unlisten = await ctx.database.listen(EVENTS_CHANNEL, () => d.wake());
      timers.push(setInterval(trim, 3_600_000), setTimeout(trim, 60_000));
      for (const t of timers) t.unref();
    },
    async settle(ids) {
      const settled = (await dispatcher?.settle(ids, SETTLE_BEFORE_ANSWER_MS)) ?? true;
      if (!settled) ctx.log.warn({ events: ids.length }, 'answered before its events were delivered');
      return settled;
    },
    async stop() {
      for (const t of timers.splice(0)) clearTimeout(t);
      await unlisten?.();
      await dispatcher?.stop();
      await trimming;
    },
  };
}
