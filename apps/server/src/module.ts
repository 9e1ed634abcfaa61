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

/** Jobs a module runs on a timer: started by its `start`, stopped (and awaited) by its `stop`. */
export function periodic(log: { error(o: object, m: string): void }, jobs: ReadonlyArray<{ what: string; everyMs: number; run: () => Promise<unknown> }>) {
  const timers: NodeJS.Timeout[] = [];
  const running = new Set<Promise<unknown>>();
  return {
    async start() {
      for (const job of jobs) {
        const timer = setInterval(() => {
          const run = job
            .run()
            .catch((err: unknown) => log.error({ err }, `${job.what} failed`))
            .finally(() => running.delete(run));
          running.add(run);
        }, job.everyMs);
        timer.unref();
        timers.push(timer);
      }
    },
    async stop() {
      for (const t of timers.splice(0)) clearInterval(t);
      await Promise.all([...running]);
    },
  };
}
