import type { AppContext } from '../context.ts';
import { periodic, type FeatureModule } from '../module.ts';
import { eraseDueAccounts } from './admin.service.ts';
import { pruneSpentRefresh } from './app-session.ts';
import { refreshDeviceGeo } from './distribution.service.ts';
import { endUserRoutes } from './end-users.routes.ts';
import { pruneUserLog } from './user-log.service.ts';

/** App users: accounts, bindings, the user log; housekeeping runs while the server does. */
export function endUsersModule(ctx: AppContext): FeatureModule {
  // Erasures after the grace period, spent refresh tokens that could no longer be used, user-log
  // retention, coding new mower positions.
  const housekeeping = periodic(ctx.log, [
    { what: 'account erasure', everyMs: 10 * 60_000, run: () => eraseDueAccounts(ctx) },
    { what: 'spent refresh tokens', everyMs: 3_600_000, run: () => pruneSpentRefresh(ctx.db, ctx.config.appRefreshTtlMs) },
    { what: 'user-log retention', everyMs: 3_600_000, run: () => pruneUserLog(ctx) },
    { what: 'device geocoding', everyMs: 60_000, run: () => refreshDeviceGeo(ctx.db) },
  ]);
  return { name: 'end-users', routes: (scope) => endUserRoutes(scope, ctx), start: housekeeping.start, stop: housekeeping.stop };
}
