import type { FastifyInstance } from 'fastify';
import type { Subscriber } from './events/dispatcher.ts';

/**
 * One server feature: its routes, the background work it runs (engines, listeners, timers) and the
 * events it consumes. `app.ts` lists the modules; nothing else starts work. Modules start in list
 * order once the server is ready and stop in reverse order on shutdown; a route function never
 * starts anything.
 */
export interface FeatureModule {
  name: string;
  routes?(scope: FastifyInstance): void | Promise<void>;
  start?(): Promise<void>;
  stop?(): Promise<void>;
  /** Consumers of the event stream (docs/events.md), delivered at least once on any node. */
  subscribes?: readonly Subscriber[];
}
