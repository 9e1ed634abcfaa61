import type { AccessFeed, AccessScope } from '../db/access-changes.ts';

/** What a loader found for a session: the principal, whose it is, and when the session ends. */
export interface LoadedPrincipal<T> {
  value: T;
  userId: number;
  expiresAt: Date;
}

interface Entry<T> {
  value: T;
  userId: number;
  /** The earlier of the cache lifetime and the session's own end. */
  until: number;
}

/** Enough for every signed-in console and app of a large deployment; beyond it the oldest go first. */
const MAX_ENTRIES = 50_000;

/**
 * A node's short-lived memory of live sessions (SESSION_CACHE_MS), so a signed-in request does not
 * query the session and its account every time. Correct across nodes because every change to a
 * session or account reaches the cache at once through the database's access feed (db/access-changes.ts),
 * and while the feed is not live the cache is bypassed and empty. Only live sessions are kept: a
 * refused token is asked of the database again next time.
 */
export class PrincipalCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  /** Bumped by every change: a load that started before one must not store what it read. */
  private generation = 0;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly feed: AccessFeed,
    private readonly scope: AccessScope,
    private readonly ttlMs: number,
  ) {
    this.unsubscribe = ttlMs > 0 ? feed.subscribe((change) => this.onChange(change?.scope, change?.userId)) : () => {};
  }

  /** The session's principal from memory, else from `load` (remembered when the session is live). */
  async get(sessionId: string, load: () => Promise<LoadedPrincipal<T> | undefined>): Promise<T | undefined> {
    if (this.ttlMs <= 0 || !this.feed.live) return (await load())?.value;
    const now = Date.now();
    const hit = this.entries.get(sessionId);
    if (hit && hit.until > now) return hit.value;
    if (hit) this.entries.delete(sessionId);
    const generation = this.generation;
    const loaded = await load();
    if (!loaded) return undefined;
    if (generation === this.generation && this.feed.live) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(sessionId, { value: loaded.value, userId: loaded.userId, until: Math.min(now + this.ttlMs, loaded.expiresAt.getTime()) });
    }
    return loaded.value;
  }

  get size(): number {
    return this.entries.size;
  }

  close(): void {
    this.unsubscribe();
    this.entries.clear();
  }

  private onChange(scope: AccessScope | undefined, userId: number | undefined) {
    if (scope !== undefined && scope !== this.scope) return;
    this.generation++;
    if (scope === undefined || userId === undefined) {
      this.entries.clear();
      return;
    }
    for (const [sessionId, entry] of this.entries) if (entry.userId === userId) this.entries.delete(sessionId);
  }
}
