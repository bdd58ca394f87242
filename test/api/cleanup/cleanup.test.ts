import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../server/common/clock.js';
import { randomId } from '../../../server/common/ids.js';
import { openDatabase, type Db } from '../../../server/db/connect.js';
import { startServer, type TestServer } from '../../support/server.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);

/**
 * Rows written straight into the server's SQLite file (a second connection;
 * WAL allows it), so every kind of leftover can be set up at a chosen time.
 */
const seed = (db: Db, owner: string) => ({
  async share(opts: { created: number; publishedUntil?: number; unpublished?: boolean; files?: number }): Promise<string> {
    const id = randomId();
    await db.db
      .insertInto('shares')
      .values({ id, account_id: owner, alias_id: null, name: id, validity: DAY, max_views: 10, password: null, description: null, created: opts.created })
      .execute();
    if (opts.publishedUntil !== undefined) {
      await db.db
        .insertInto('publish_shares')
        .values({
          id: randomId(), share_id: id, enabled: opts.unpublished ? 0 : 1, views: 0, last_access: null,
          publish_date: opts.created, publish_until: opts.publishedUntil, created: opts.created,
        })
        .execute();
    }
    for (let i = 0; i < (opts.files ?? 1); i++) {
      const fileId = await this.file(opts.created);
      await db.db
        .insertInto('share_files')
        .values({ id: randomId(), share_id: id, file_id: fileId, filename: `f${i}.bin`, created: opts.created, real_size: 3 })
        .execute();
    }
    return id;
  },
  /** file data in the database store: a file_meta row with one chunk */
  async file(created: number): Promise<string> {
    const fileId = randomId();
    await db.db
      .insertInto('file_meta')
      .values({ file_id: fileId, mimetype: 'application/octet-stream', length: 3, checksum: '', created, store: 'database', location: '' })
      .execute();
    await db.db.insertInto('file_chunks').values({ file_id: fileId, chunk_nr: 0, chunk_len: 3, chunk_data: new Uint8Array([1, 2, 3]) }).execute();
    return fileId;
  },
  async invitation(created: number): Promise<string> {
    const id = randomId();
    await db.db.insertInto('invitations').values({ id, created }).execute();
    return id;
  },
});

const exists = async (db: Db, table: 'shares' | 'invitations', id: string) =>
  (await db.db.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
const chunks = async (db: Db, fileId: string) =>
  (await db.db.selectFrom('file_chunks').select('file_id').where('file_id', '=', fileId).execute()).length;
const filesOf = async (db: Db, shareId: string) =>
  (await db.db.selectFrom('share_files').select('file_id').where('share_id', '=', shareId).execute()).map((r) => r.file_id);

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
    db = await openDatabase({ url: `jdbc:sqlite:${join(a.dataDir, 'pier.db')}`, user: '', password: '' });
    owner = (await db.db.selectFrom('accounts').select('id').where('login', '=', 'admin').executeTakeFirstOrThrow()).id;
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
