import type { FastifyInstance } from 'fastify';

/**
 * Work a response must not wait for, because its duration would tell the caller something
 * (forgot-password takes longer when the account exists). Failures are logged; the server
 * finishes pending work before it closes, so nothing is cut off by a graceful stop.
 */
export function backgroundRunner(app: FastifyInstance) {
  const pending = new Set<Promise<void>>();
  app.addHook('onClose', async () => {
    await Promise.allSettled([...pending]);
  });
  return (what: string, work: () => Promise<void>) => {
    const task: Promise<void> = work()
      .catch((err: unknown) => app.log.error({ err }, `${what} failed`))
      .finally(() => pending.delete(task));
    pending.add(task);
  };
}
