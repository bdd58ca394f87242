// The cleanup job's schedule on the real clock: with `enabled = false` no pass ever runs by
// itself; otherwise a pass runs every `interval`, the first one an interval after start when
// that is shorter than a minute. Before, the first pass came a minute after start whatever the
// interval.
import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '../../../server/db/connect.js';
import { startServer, type TestServer } from '../../support/server.js';
import { eventually } from '../../support/system.js';
import { DAY, exists, openServerDb, seed } from './support.js';

const INTERVAL = 1000;

/** The times (ms since the epoch) at which the server logged a finished cleanup pass. */
const passesOf = (s: TestServer): number[] =>
  s
    .logs()
    .split('\n')
    .filter((l) => l.includes('"Cleanup finished"'))
    .map((l) => (JSON.parse(l) as { time: number }).time);

describe('the cleanup schedule', () => {
  let s: TestServer | undefined;
  let db: Db | undefined;
  afterEach(async () => {
    await db?.close();
    await s?.stop();
  });

  /** A server with `backend.cleanup` set, and a share that expired ten days ago (past `invalid-age`). */
  const start = async (cleanup: Record<string, unknown>) => {
    const started = Date.now();
    s = await startServer({ config: { backend: { cleanup: { interval: `${INTERVAL} ms`, ...cleanup } } } });
    const opened = await openServerDb(s);
    db = opened.db;
    const rows = seed(opened.db, opened.owner);
    const expired = () => rows.share({ created: Date.now() - 20 * DAY, publishedUntil: Date.now() - 10 * DAY });
    return { started, server: s, db: opened.db, expired };
  };

  it('runs a pass every interval, the first one an interval after start, each removing what expired', async () => {
    const { started, server, db, expired } = await start({});
    const first = await expired();
    await eventually(async () => !(await exists(db, 'shares', first)), 10 * INTERVAL);
    const second = await expired();
    await eventually(async () => !(await exists(db, 'shares', second)), 10 * INTERVAL);
    const passes = await eventually(() => (passesOf(server).length >= 4 ? passesOf(server) : undefined), 10 * INTERVAL);
    expect(passes[0]! - started).toBeGreaterThanOrEqual(INTERVAL - 20);
    expect(passes[0]! - started).toBeLessThan(INTERVAL + 3000);
    // the next pass is scheduled an interval after the previous one finished
    for (let i = 1; i < passes.length; i++) {
      expect(passes[i]! - passes[i - 1]!).toBeGreaterThanOrEqual(INTERVAL - 20);
      expect(passes[i]! - passes[i - 1]!).toBeLessThan(INTERVAL + 3000);
    }
  });

  it('runs no pass by itself with enabled = false, while a pass asked for still removes what expired', async () => {
    const { server, db, expired } = await start({ enabled: false });
    const share = await expired();
    // letting three intervals pass is the test: a disabled job must not run in that time
    await new Promise((r) => setTimeout(r, 3 * INTERVAL + 500));
    expect(passesOf(server)).toEqual([]);
    expect(await exists(db, 'shares', share)).toBe(true);
    // the share was one a pass removes
    expect((await server.runCleanup()).expiredShares).toBe(1);
    expect(await exists(db, 'shares', share)).toBe(false);
  });
});
