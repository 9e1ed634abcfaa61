import type { AppContext } from '../context.ts';
import { periodic, type FeatureModule } from '../module.ts';
import { authRoutes } from './auth.routes.ts';
import { pruneAttempts } from './login-attempts.service.ts';

/** Staff sign-in and their own account; sign-in attempts (and form hits) past their window are pruned while the server runs. */
export function authModule(ctx: AppContext): FeatureModule {
  const retention = periodic(ctx.log, [{ what: 'sign-in attempt retention', everyMs: 3_600_000, run: () => pruneAttempts(ctx) }]);
  return { name: 'auth', routes: (scope) => authRoutes(scope, ctx), start: retention.start, stop: retention.stop };
}
