import type pg from 'pg';

/**
 * Changes to who may call the API: sessions, staff accounts and their factors (scope 'staff'), app
 * sessions and app users (scope 'app'). The principal caches (auth/principal-cache.ts) drop what a
 * change touches, so a cached sign-in never outlives its revocation.
 *
 * Two sources feed it, because neither alone is enough:
 * - this node's own statements, seen as they complete (`ConnectionWatch`): a revocation answered by
 *   this node is known here before its HTTP answer leaves, so the very next request sees it;
 * - on PostgreSQL, the `access_changes` NOTIFY channel, sent by triggers (migration 0019) on every
 *   write by anyone: other nodes, raw SQL, the CLI. While that listening connection is down the
 *   feed is not `live`, and the caches are bypassed: a missed notification cannot leave a stale entry.
 */
export type AccessScope = 'staff' | 'app';

/** A change to one user's access (`userId`), or to anyone's in the scope (no `userId`). */
export interface AccessChange {
  scope: AccessScope;
  userId?: number;
}

export interface AccessFeed {
  /** Every change is known here at once; false while the PostgreSQL listener is reconnecting. */
  readonly live: boolean;
  /** `change` undefined: the feed stopped being live, anything may have been missed. */
  subscribe(listener: (change: AccessChange | undefined) => void): () => void;
}

export const ACCESS_CHANNEL = 'access_changes';

const scopeOfTable: Record<string, AccessScope> = {
  sessions: 'staff',
  staff_users: 'staff',
  staff_factors: 'staff',
  app_sessions: 'app',
  app_users: 'app',
};
/** A write at the start of the text or of any statement in it. */
const writeStatement = /(?:^|;)\s*(?:update|insert|delete|truncate|with|merge)\b/i;
const watchedTable = /"?\b(sessions|staff_users|staff_factors|app_sessions|app_users)\b"?/gi;
const transactionStart = /^\s*(?:begin|start\s+transaction)\b[^;]*;?\s*$/i;
const transactionEnd = /^\s*(?:commit|rollback|end|abort)\b[^;]*;?\s*$/i;
/** The staff guard's own throttled `last_seen_at` write: it changes no principal. */
const lastSeenWrite = /^\s*update "sessions" set "last_seen_at" = \$1 where/i;

/** The scopes a statement may change (conservative: any write naming a watched table). */
export function scopesWritten(sql: string): AccessScope[] {
  if (!writeStatement.test(sql) || lastSeenWrite.test(sql)) return [];
  const scopes = new Set<AccessScope>();
  for (const [, table] of sql.matchAll(watchedTable)) scopes.add(scopeOfTable[table!.toLowerCase()]!);
  return [...scopes];
}

export class AccessChangeFeed implements AccessFeed {
  private readonly listeners = new Set<(change: AccessChange | undefined) => void>();
  live: boolean;

  constructor(live: boolean) {
    this.live = live;
  }

  subscribe(listener: (change: AccessChange | undefined) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(change: AccessChange | undefined): void {
    for (const listener of this.listeners) listener(change);
  }

  setLive(live: boolean): void {
    if (this.live && !live) this.emit(undefined);
    this.live = live;
  }
}

/**
 * Follows one connection's statements and reports a write to a watched table once it is committed:
 * at once outside a transaction, at COMMIT (or ROLLBACK, harmlessly) inside one.
 */
export class ConnectionWatch {
  private inTransaction = false;
  private readonly pending = new Set<AccessScope>();

  constructor(private readonly feed: AccessChangeFeed) {}

  /** Called when a statement has completed (successfully or not). */
  completed(sql: string): void {
    // Only a statement that is nothing but BEGIN or COMMIT moves the transaction state: a
    // multi-statement string (pg-boss sends 'BEGIN; …; COMMIT;') holds its whole transaction.
    if (transactionStart.test(sql)) {
      this.inTransaction = true;
      return;
    }
    if (transactionEnd.test(sql)) {
      this.inTransaction = false;
      this.flush();
      return;
    }
    const scopes = scopesWritten(sql);
    if (scopes.length === 0) return;
    for (const scope of scopes) this.pending.add(scope);
    if (!this.inTransaction) this.flush();
  }

  /** The transaction ended without a statement saying so (a PGlite transaction, a dropped connection). */
  flush(): void {
    for (const scope of this.pending) this.feed.emit({ scope });
    this.pending.clear();
  }
}

type QueryFn = (...args: unknown[]) => unknown;

/** Makes every statement of a pooled `pg` client pass through a `ConnectionWatch`. */
export function watchPgClient(client: pg.PoolClient | pg.Client, feed: AccessChangeFeed): void {
  const watch = new ConnectionWatch(feed);
  // The class's method, looked up on each call: a wrapper installed on the class later (the
  // benchmark's SQL capture, bench/lib/sql-floor.ts) still sees this client's statements.
  const query: QueryFn = (...args) => (Object.getPrototypeOf(client) as { query: QueryFn }).query.apply(client, args);
  const watched: QueryFn = (...args) => {
    const first = args[0] as string | { text?: string } | undefined;
    const text = typeof first === 'string' ? first : first?.text;
    if (typeof text !== 'string') return query(...args);
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = (...result: unknown[]) => {
        watch.completed(text);
        return (callback as QueryFn)(...result);
      };
      return query(...args);
    }
    const returned = query(...args);
    if (returned instanceof Promise) {
      const done = () => watch.completed(text);
      return returned.then(
        (value: unknown) => (done(), value),
        (err: unknown) => {
          done();
          throw err;
        },
      );
    }
    return returned;
  };
  client.query = watched as typeof client.query;
  client.once('end', () => watch.flush());
}
