import type { AppContext } from '../context.ts';
import type { FeatureModule } from '../module.ts';
import { OrphanFileSweep } from './orphan-sweep.ts';

/** Stored files: files a crash left without their row (and cut-off `.part` uploads) go at start and hourly. */
export function storedFilesModule(ctx: AppContext): FeatureModule {
  const sweep = new OrphanFileSweep({ db: ctx.db, dataDir: ctx.config.dataDir, minAgeMs: ctx.config.orphanFileMinAgeMs, log: ctx.log });
  return { name: 'stored-files', start: async () => sweep.start(), stop: async () => sweep.stop() };
}
