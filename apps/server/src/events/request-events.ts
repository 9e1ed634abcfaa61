import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';

/** The ids of the events the current HTTP request wrote (in transactions that may still roll back). */
const emittedInRequest = new AsyncLocalStorage<string[]>();

export function noteEmitted(ids: readonly string[]): void {
  if (ids.length > 0) emittedInRequest.getStore()?.push(...ids);
}

/**
 * A request answers only once the subscribers that must act before it (the bell) handled the
 * events it caused, up to a bound: whoever acts sees the notice their action caused as soon as the
 * answer arrives, and the console's unread count is right when it asks. Past the bound the answer
 * goes out anyway; delivery is still guaranteed, only later.
 */
export function settleBeforeAnswer(app: FastifyInstance, settle: (ids: string[]) => Promise<unknown>): void {
  app.addHook('onRequest', (_request, _reply, done) => emittedInRequest.run([], done));
  app.addHook('onSend', async (_request, _reply, payload) => {
    const ids = emittedInRequest.getStore();
    if (ids && ids.length > 0) await settle(ids.splice(0));
    return payload;
  });
}
