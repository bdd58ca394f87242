/** Helpers of the cleanup tests: rows of every kind written at a chosen time, and lookups. */
import { join } from 'node:path';
import { randomId } from '../../../server/common/ids.js';
import { openDatabase, type Db } from '../../../server/db/connect.js';
import type { TestServer } from '../../support/server.js';

export const DAY = 86_400_000;

/** A second connection to the server's SQLite file, and the id of its admin (the owner of seeded shares). */
export const openServerDb = async (s: TestServer): Promise<{ db: Db; owner: string }> => {
  const db = await openDatabase({ url: `jdbc:sqlite:${join(s.dataDir, 'pier.db')}`, user: '', password: '' });
  const owner = (await db.db.selectFrom('accounts').select('id').where('login', '=', 'admin').executeTakeFirstOrThrow()).id;
  return { db, owner };
};

/**
 * Rows written straight into the server's SQLite file (a second connection;
 * WAL allows it), so every kind of leftover can be set up at a chosen time.
 */
export const seed = (db: Db, owner: string) => ({
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

export const exists = async (db: Db, table: 'shares' | 'invitations', id: string) =>
  (await db.db.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
export const chunks = async (db: Db, fileId: string) =>
  (await db.db.selectFrom('file_chunks').select('file_id').where('file_id', '=', fileId).execute()).length;
export const filesOf = async (db: Db, shareId: string) =>
  (await db.db.selectFrom('share_files').select('file_id').where('share_id', '=', shareId).execute()).map((r) => r.file_id);
