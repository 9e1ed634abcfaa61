import pg from 'pg';

/**
 * A dedicated LISTEN connection for one channel, reconnecting after a drop. Notifications only wake
 * work that also runs on a timer, so one lost while reconnecting costs latency, never correctness.
 */
export function listenOnPostgres(url: string, channel: string, onNotify: () => void, onError: (err: Error) => void): { close(): Promise<void> } {
  let client: pg.Client | undefined;
  let closed = false;
  let retryMs = 200;
  let timer: NodeJS.Timeout | undefined;

  const lost = (c: pg.Client) => {
    if (client !== c) return;
    client = undefined;
    c.end().catch(() => {});
    if (!closed) timer = setTimeout(connect, retryMs);
    retryMs = Math.min(retryMs * 2, 5_000);
  };

  async function connect() {
    const c = new pg.Client({ connectionString: url, application_name: `mowerline ${channel} listener`, keepAlive: true });
    client = c;
    c.on('error', (err) => {
      onError(err);
      lost(c);
    });
    c.on('end', () => lost(c));
    c.on('notification', (message) => {
      if (message.channel === channel && client === c) onNotify();
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${channel}`);
      retryMs = 200;
      // What committed while no one listened is found now.
      if (client === c) onNotify();
    } catch (err) {
      onError(err as Error);
      lost(c);
    }
  }

  void connect();
  return {
    async close() {
      closed = true;
      clearTimeout(timer);
      const c = client;
      client = undefined;
      await c?.end().catch(() => {});
    },
  };
}
