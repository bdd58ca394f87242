/**
 * Where rate limits keep their attempts: a time per attempt, under a key.
 * Servers sharing a PostgreSQL or MariaDB database share one store in the
 * database, so together they allow what one server allows; a server on SQLite
 * keeps its store in memory.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../../common/clock.js';
import { randomId } from '../../common/ids.js';
import type { Database } from '../../db/schema.js';

/** One attempt as stored, to take it back. */
export interface Hit {
  key: string;
  at: number;
  id: string;
}

export interface HitStore {
  /** Stores an attempt at `at` under each key, kept until `until`. */
  add(keys: readonly string[], at: number, until: number): Promise<Hit[]>;
  /** The times of the attempts under each key after its `since`, oldest first. */
  times(queries: readonly { key: string; since: number }[]): Promise<Map<string, number[]>>;
  /** Takes attempts back. */
  remove(hits: readonly Hit[]): Promise<void>;
}

/**
 * Attempts in memory. Stale keys are dropped as new ones arrive; beyond
 * `maxKeys` the oldest keys are dropped, so memory stays bounded under a
 * flood of addresses (at the price of forgetting them).
 */
export const createMemoryHitStore = (clock: Clock, maxKeys = 100_000): HitStore => {
  const entries = new Map<string, { times: number[]; until: number }>();
  const sweep = (): void => {
    if (entries.size < maxKeys) return;
    const now = clock.now();
    for (const [key, e] of entries) if (e.until <= now) entries.delete(key);
    for (const key of entries.keys()) {
      if (entries.size < maxKeys) break;
      entries.delete(key);
    }
  };
  return {
    add(keys, at, until) {
      sweep();
      for (const key of keys) {
        const e = entries.get(key) ?? { times: [], until };
        e.times.push(at);
        e.until = Math.max(e.until, until);
        // attempts older than the longest window asked about are of no use; keep the list short
        if (e.times.length > 1000) e.times.splice(0, e.times.length - 1000);
        entries.set(key, e);
      }
      return Promise.resolve(keys.map((key) => ({ key, at, id: '' })));
    },
    times(queries) {
      const out = new Map<string, number[]>();
      for (const { key, since } of queries) out.set(key, (entries.get(key)?.times ?? []).filter((t) => t > since));
      return Promise.resolve(out);
    },
    remove(hits) {
      for (const { key, at } of hits) {
        const e = entries.get(key);
        const i = e ? e.times.lastIndexOf(at) : -1;
        if (i < 0) continue;
        e!.times.splice(i, 1);
        if (e!.times.length === 0) entries.delete(key);
      }
      return Promise.resolve();
    },
  };
};

/** Keys are stored hashed: fixed length, and no login or address in the table. */
const digest = (key: string): string => createHash('sha256').update(key).digest('base64url');

/**
 * Attempts in the `rate_limit_hits` table (migration 0006), shared by every
 * server on the database. Rows past their `until` are deleted now and then.
 */
export const createDatabaseHitStore = (db: Kysely<Database>, clock: Clock, pruneEveryMs = 60_000): HitStore => {
  let pruned = 0;
  const prune = async (): Promise<void> => {
    const now = clock.now();
    if (now - pruned < pruneEveryMs) return;
    pruned = now;
    await db.deleteFrom('rate_limit_hits').where('expires', '<', now).execute();
  };
  return {
    async add(keys, at, until) {
      await prune();
      const hits = keys.map((key) => ({ key, at, id: randomId() }));
      await db
        .insertInto('rate_limit_hits')
        .values(hits.map((h) => ({ id: h.id, hit_key: digest(h.key), at, expires: until })))
        .execute();
      return hits;
    },
    async times(queries) {
      const out = new Map<string, number[]>(queries.map((q) => [q.key, []]));
      if (queries.length === 0) return out;
      const byDigest = new Map(queries.map((q) => [digest(q.key), q]));
      const rows = await db
        .selectFrom('rate_limit_hits')
        .select(['hit_key', 'at'])
        .where((eb) => eb.or(queries.map((q) => eb.and([eb('hit_key', '=', digest(q.key)), eb('at', '>', q.since)]))))
        .orderBy('at')
        .execute();
      for (const row of rows) out.get(byDigest.get(row.hit_key)!.key)!.push(Number(row.at));
      return out;
    },
    async remove(hits) {
      if (hits.length === 0) return;
      await db.deleteFrom('rate_limit_hits').where('id', 'in', hits.map((h) => h.id)).execute();
    },
  };
};
