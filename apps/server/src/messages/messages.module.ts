import type { AppContext } from '../context.ts';
import { onceById } from '../events/once.ts';
import type { FeatureModule } from '../module.ts';
import { bellHandlers, bellTypes, ringBell } from './bell.ts';
import { messagesRoutes } from './messages.routes.ts';

const BELL = 'bell';

/**
 * The message box: its routes, and the bell as a subscriber of the event stream, so every notice
 * comes from what happened rather than from a call inside another feature. A request that caused a
 * notice answers once the notice is there.
 */
export function messagesModule(ctx: AppContext): FeatureModule {
  const handlers = bellHandlers(ctx);
  return {
    name: 'messages',
    routes: (scope) => messagesRoutes(scope, ctx),
    subscribes: [{ name: BELL, types: bellTypes(handlers), beforeAnswer: true, handle: onceById(ctx.db, BELL, ringBell(handlers)) }],
  };
}
