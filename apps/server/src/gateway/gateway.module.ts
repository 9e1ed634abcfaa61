import type { AppContext } from '../context.ts';
import type { FeatureModule } from '../module.ts';
import { gatewayRoutes } from './gateway.routes.ts';

/**
 * The device gateway: the broker (or the external broker's connection) starts with the server and
 * stops after the modules listed after it, writing every device message it accepted.
 */
export function gatewayModule(ctx: AppContext): FeatureModule {
  return {
    name: 'gateway',
    routes: (scope) => gatewayRoutes(scope, ctx),
    start: () => ctx.gateway.start(),
    stop: () => ctx.gateway.stop(),
  };
}
