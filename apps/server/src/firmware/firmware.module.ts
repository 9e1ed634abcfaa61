import type { AppContext } from '../context.ts';
import type { FeatureModule } from '../module.ts';
import { firmwareRoutes } from './firmware.routes.ts';
import { createSigner, createUrlSigner } from './signing.ts';

/** Artifacts (firmware, voice packs): upload, signing, release, and the signed download links devices use. */
export function firmwareModule(ctx: AppContext): FeatureModule {
  return {
    name: 'firmware',
    routes: (scope) => firmwareRoutes(scope, ctx, createSigner(ctx.config), createUrlSigner(ctx.config)),
  };
}
