import pg from 'pg';
import { ACCESS_CHANNEL, type AccessChangeFeed } from './access-changes.ts';

/**
 * The dedicated listening connection of one node: LISTEN on `access_changes`, reconnecting after a
 * drop; the feed is live only while it listens.
 */
export function listenForAccessChanges(url: string, feed: AccessChangeFeed, onError: (err: Error) => void): { ready: Promise<void>; close(): Promise<void> } {
  let client: pg.Client | undefined;
  let closed = false;
  let retryMs = 200;
  let timer: NodeJS.Timeout | undefined;
  let firstAttempt: () => void = () => {};
  const ready = new Promise<void>((resolve) => (firstAttempt = resolve));

  const lost = (c: pg.Client) => {
    if (client !== c) return;
    client = undefined;
    feed.setLive(false);
    c.end().catch(() => {});
    if (!closed) timer = setTimeout(connect, retryMs);
    retryMs = Math.min(retryMs * 2, 5_000);
  };

  async function connect() {
    const c = new pg.Client({ connectionString: url, application_name: 'mowerline access listener', keepAlive: true });
    client = c;
    c.on('error', (err) => {
      onError(err);
      lost(c);
    });
    c.on('end', () => lost(c));
    c.on('notification', (message) => {
      if (message.channel !== ACCESS_CHANNEL || client !== c) return;
      const [scope, user] = (message.payload ?? '').split(':');
      if (scope !== 'staff' && scope !== 'app') return;
      const userId = Number(user);
      feed.emit(Number.isInteger(userId) && user !== '' ? { scope, userId } : { scope });
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${ACCESS_CHANNEL}`);
      if (client !== c || closed) return;
      retryMs = 200;
      // Nothing was cached while it was down (the caches were bypassed), so nothing is stale.
      feed.setLive(true);
    } catch (err) {
      onError(err as Error);
      lost(c);
    } finally {
      firstAttempt();
    }
  }

  void connect();
  return {
    ready,
    async close() {
      closed = true;
      clearTimeout(timer);
      const c = client;
      client = undefined;
      feed.setLive(false);
      await c?.end().catch(() => {});
    },
  };
}
