import type { AppContext } from '../context.ts';
import { periodic, type FeatureModule } from '../module.ts';
import { sweepEndedWindows } from './shared-store.ts';

/** The shared rate-limit counters: every node sweeps the windows that ended once a minute while it runs. */
export function rateLimitModule(ctx: AppContext): FeatureModule {
  const cleanup = periodic(ctx.log, [{ what: 'rate limit cleanup', everyMs: 60_000, run: () => sweepEndedWindows(ctx.db) }]);
  return { name: 'rate-limit', start: cleanup.start, stop: cleanup.stop };
}
