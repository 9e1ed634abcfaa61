import type { AppContext } from '../context.ts';
import { createUrlSigner } from '../firmware/signing.ts';
import type { FeatureModule } from '../module.ts';
import { OtaEngine } from './engine.ts';
import { otaRoutes } from './ota.routes.ts';

/**
 * OTA campaigns. The engine listens on device topics, so the module comes after the gateway in
 * app.ts: it starts after the gateway and stops before it.
 */
export function otaModule(ctx: AppContext): FeatureModule {
  const engine = new OtaEngine({ database: ctx.database, db: ctx.db, gateway: ctx.gateway, config: ctx.config, urls: createUrlSigner(ctx.config), log: ctx.log });
  return {
    name: 'ota',
    routes: (scope) => otaRoutes(scope, ctx, engine),
    start: () => engine.start(),
    stop: () => engine.stop(),
  };
}
