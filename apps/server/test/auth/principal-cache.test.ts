import { afterEach, describe, expect, it, vi } from 'vitest';
import { PrincipalCache } from '../../src/auth/principal-cache.ts';
import { AccessChangeFeed, ConnectionWatch, scopesWritten, type AccessChange } from '../../src/db/access-changes.ts';

const SID = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';

/** A loader that counts its database round trips and answers for user 7 (or user 8 for OTHER). */
function loader(expiresAt = new Date(Date.now() + 3_600_000)) {
  const calls: string[] = [];
  const load = (sid: string) => async () => {
    calls.push(sid);
    return { value: `principal ${sid}`, userId: sid === OTHER ? 8 : 7, expiresAt };
  };
  return { calls, load };
}

describe('PrincipalCache', () => {
  afterEach(() => vi.useRealTimers());

  it('answers a live session from memory until a change to its user, and keeps other users', async () => {
    const feed = new AccessChangeFeed(true);
    const cache = new PrincipalCache<string>(feed, 'staff', 60_000);
    const { calls, load } = loader();
    expect(await cache.get(SID, load(SID))).toBe(`principal ${SID}`);
    expect(await cache.get(SID, load(SID))).toBe(`principal ${SID}`);
    await cache.get(OTHER, load(OTHER));
    expect(calls).toEqual([SID, OTHER]);

    feed.emit({ scope: 'app', userId: 7 });
    feed.emit({ scope: 'staff', userId: 8 });
    await cache.get(SID, load(SID));
    await cache.get(OTHER, load(OTHER));
    expect(calls).toEqual([SID, OTHER, OTHER]);

    feed.emit({ scope: 'staff' });
    await cache.get(SID, load(SID));
    expect(calls).toEqual([SID, OTHER, OTHER, SID]);
  });

  it('never keeps an entry past its lifetime or past the session’s own end', async () => {
    vi.useFakeTimers({ now: new Date('2026-05-01T10:00:00Z'), toFake: ['Date'] });
    const cache = new PrincipalCache<string>(new AccessChangeFeed(true), 'staff', 5_000);
    const long = loader();
    await cache.get(SID, long.load(SID));
    vi.setSystemTime(new Date('2026-05-01T10:00:04.999Z'));
    await cache.get(SID, long.load(SID));
    vi.setSystemTime(new Date('2026-05-01T10:00:05Z'));
    await cache.get(SID, long.load(SID));
    expect(long.calls).toHaveLength(2);

    const ending = loader(new Date('2026-05-01T10:00:06Z'));
    await cache.get(OTHER, ending.load(OTHER));
    vi.setSystemTime(new Date('2026-05-01T10:00:06Z'));
    await cache.get(OTHER, ending.load(OTHER));
    expect(ending.calls).toHaveLength(2);
  });

  it('does not store what a load read before a change that arrived while it ran', async () => {
    const feed = new AccessChangeFeed(true);
    const cache = new PrincipalCache<string>(feed, 'staff', 60_000);
    const { calls, load } = loader();
    await cache.get(SID, async () => {
      const read = await load(SID)();
      feed.emit({ scope: 'staff', userId: 7 });
      return read;
    });
    await cache.get(SID, load(SID));
    expect(calls).toEqual([SID, SID]);
  });

  it('is emptied when the feed stops being live, and bypassed until it is live again', async () => {
    const feed = new AccessChangeFeed(true);
    const cache = new PrincipalCache<string>(feed, 'staff', 60_000);
    const { calls, load } = loader();
    await cache.get(SID, load(SID));
    feed.setLive(false);
    expect(cache.size).toBe(0);
    await cache.get(SID, load(SID));
    await cache.get(SID, load(SID));
    expect(cache.size).toBe(0);
    feed.setLive(true);
    await cache.get(SID, load(SID));
    await cache.get(SID, load(SID));
    expect(calls).toHaveLength(4);
  });

  it('with a lifetime of 0 asks the loader every time and keeps nothing', async () => {
    const cache = new PrincipalCache<string>(new AccessChangeFeed(true), 'staff', 0);
    const { calls, load } = loader();
    await cache.get(SID, load(SID));
    await cache.get(SID, load(SID));
    expect(calls).toHaveLength(2);
    expect(cache.size).toBe(0);
  });
});

describe('the statements that change access', () => {
  it('are writes naming a session or account table, except the guard’s last_seen_at write', () => {
    expect(scopesWritten('update "sessions" set "revoked_at" = $1 where "sessions"."id" = $2')).toEqual(['staff']);
    expect(scopesWritten('update "sessions" set "last_seen_at" = $1 where ("sessions"."id" = $2 and "sessions"."last_seen_at" < $3)')).toEqual([]);
    expect(scopesWritten('insert into "staff_factors" ("user_id") values ($1)')).toEqual(['staff']);
    expect(scopesWritten('delete from "app_users" where "app_users"."id" = $1')).toEqual(['app']);
    expect(scopesWritten('TRUNCATE sessions, app_sessions CASCADE')).toEqual(['staff', 'app']);
    expect(scopesWritten('select * from "sessions" inner join "staff_users" on true')).toEqual([]);
    expect(scopesWritten('update "shell_sessions" set "ended_at" = $1')).toEqual([]);
  });

  it('are reported once committed: at once outside a transaction, at its end inside one', () => {
    const feed = new AccessChangeFeed(true);
    const seen: (AccessChange | undefined)[] = [];
    feed.subscribe((change) => seen.push(change));
    const watch = new ConnectionWatch(feed);
    watch.completed('update "staff_users" set "status" = $1');
    expect(seen).toEqual([{ scope: 'staff' }]);
    watch.completed('begin');
    watch.completed('update "app_sessions" set "revoked_at" = $1');
    watch.completed('update "app_users" set "status" = $1');
    expect(seen).toHaveLength(1);
    watch.completed('commit');
    expect(seen).toEqual([{ scope: 'staff' }, { scope: 'app' }]);
    // A string holding its whole transaction is reported when it completes.
    watch.completed("BEGIN; SET LOCAL lock_timeout = '30s'; UPDATE sessions SET revoked_at = now(); COMMIT;");
    expect(seen).toEqual([{ scope: 'staff' }, { scope: 'app' }, { scope: 'staff' }]);
  });
});
