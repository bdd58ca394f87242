import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../server/common/clock.js';
import type { Db } from '../../../server/db/connect.js';
import { startServer, type TestServer } from '../../support/server.js';
import { chunks, DAY, exists, filesOf, openServerDb, seed } from './support.js';

const T0 = Date.UTC(2026, 0, 1);

describe('the cleanup job', () => {
  const clock = manualClock(T0);
  const config = {
    backend: {
      share: { 'max-validity': '30 days' },
      cleanup: { 'invalid-age': '7 days' },
      signup: { mode: 'invite', 'invite-time': '14 days' },
    },
  };
  let a: TestServer;
  let b: TestServer;
  let db: Db;
  let owner: string;

  beforeAll(async () => {
    a = await startServer({ clock, config });
    b = await startServer({ clock, config, dataDir: a.dataDir });
    ({ db, owner } = await openServerDb(a));
  });
  afterAll(async () => {
    await db.close();
    await b.stop();
    await a.stop();
  });

  it('removes exactly what nobody can use any more, with its file data, once, even with two servers at it', async () => {
    const s = seed(db, owner);
    // published, expired 8 days ago (> invalid-age): removed
    const expiredLong = await s.share({ created: T0, publishedUntil: T0 + DAY, files: 2 });
    // published, expired 6 days ago (< invalid-age): kept
    const expiredRecently = await s.share({ created: T0 + 2 * DAY, publishedUntil: T0 + 3 * DAY });
    // published and valid, although old: kept
    const valid = await s.share({ created: T0, publishedUntil: T0 + 400 * DAY });
    // never published, older than max-validity + invalid-age (37 days): removed
    const staleNever = await s.share({ created: T0 - 40 * DAY });
    // unpublished again, old: removed
    const staleUnpublished = await s.share({ created: T0 - 40 * DAY, publishedUntil: T0 + 100 * DAY, unpublished: true });
    // never published, 20 days old: kept
    const young = await s.share({ created: T0 - 11 * DAY });
    // file data no share references (an incomplete upload whose share is gone), old enough: removed
    const orphan = await s.file(T0);
    // file data written just now, whose share-file row may be on its way: kept
    const fresh = await s.file(T0 + 9 * DAY - 1000);
    const oldInvite = await s.invitation(T0 - 10 * DAY);
    const newInvite = await s.invitation(T0 + 9 * DAY);
    const removedFiles = [...(await filesOf(db, expiredLong)), ...(await filesOf(db, staleNever)), ...(await filesOf(db, staleUnpublished)), orphan];

    clock.set(T0 + 9 * DAY);
    const [ra, rb] = await Promise.all([a.runCleanup(), b.runCleanup()]);
    expect(ra.failures + rb.failures).toBe(0);
    expect(ra.expiredShares + rb.expiredShares).toBe(1);
    expect(ra.staleShares + rb.staleShares).toBe(2);
    expect(ra.invitations + rb.invitations).toBe(1);
    expect(ra.files + rb.files).toBe(removedFiles.length);

    for (const id of [expiredLong, staleNever, staleUnpublished]) expect(await exists(db, 'shares', id)).toBe(false);
    for (const id of [expiredRecently, valid, young]) expect(await exists(db, 'shares', id)).toBe(true);
    for (const f of removedFiles) expect(await chunks(db, f)).toBe(0);
    expect(await chunks(db, fresh)).toBe(1);
    for (const f of await filesOf(db, valid)) expect(await chunks(db, f)).toBe(1);
    expect(await exists(db, 'invitations', oldInvite)).toBe(false);
    expect(await exists(db, 'invitations', newInvite)).toBe(true);

    // a second pass finds nothing more
    const again = await a.runCleanup();
    expect(again).toEqual({ expiredShares: 0, staleShares: 0, invitations: 0, files: 0, failures: 0 });
  });
});
