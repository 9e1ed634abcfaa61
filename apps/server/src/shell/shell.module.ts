import type { AppContext } from '../context.ts';
import { periodic, type FeatureModule } from '../module.ts';
import { shellRoutes } from './shell.routes.ts';
import { pruneRecordings } from './shell.service.ts';

/** Remote shell: its routes and socket relay, and the recordings' retention while the server runs. */
export function shellModule(ctx: AppContext): FeatureModule {
  const retention = periodic(ctx.log, [
    { what: 'shell recording retention', everyMs: 3_600_000, run: () => pruneRecordings(ctx.db, ctx.config.shellRecordRetentionDays) },
  ]);
  return { name: 'shell', routes: (scope) => shellRoutes(scope, ctx), start: retention.start, stop: retention.stop };
}
