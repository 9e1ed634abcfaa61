import type { AppContext } from '../context.ts';
import type { FeatureModule } from '../module.ts';
import { TaskEngine } from './task-engine.ts';
import { taskRoutes } from './tasks.routes.ts';

/** Mowing tasks. The engine consumes the mowers' run, zone and ack reports: it comes after the gateway. */
export function tasksModule(ctx: AppContext): FeatureModule {
  const engine = new TaskEngine({ db: ctx.db, gateway: ctx.gateway, log: ctx.log, flushMs: ctx.config.telemetryFlushMs });
  return {
    name: 'tasks',
    routes: (scope) => taskRoutes(scope, ctx, engine),
    start: () => engine.start(),
    stop: () => engine.stop(),
  };
}
