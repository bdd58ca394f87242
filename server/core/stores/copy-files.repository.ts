/**
 * What copying files between stores reads and writes of `file_meta` and
 * `share_files`. Plain functions taking `db` first; rows are mapped here and
 * never leave.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { NameHint } from './binary-store.js';

type Db = Kysely<Database>;

/** A binary as the copy sees it: its id, declared length and location in its store. */
export interface StoredFile {
  fileId: string;
  length: number;
  location: string;
}

/** The binaries of `store` with a file id after `after`, by file id, at most `limit`. */
export const filesInStore = async (db: Db, store: string, after: string, limit: number): Promise<StoredFile[]> => {
  const rows = await db
    .selectFrom('file_meta')
    .select(['file_id', 'length', 'location'])
    .where('store', '=', store)
    .where('file_id', '>', after)
    .orderBy('file_id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ fileId: r.file_id, length: Number(r.length), location: r.location }));
};

/** The names a binary is known by (its oldest share file), for stores that name what they hold. */
export const nameHintOf = async (db: Db, fileId: string): Promise<NameHint> => {
  const row = await db
    .selectFrom('share_files')
    .leftJoin('shares', 'shares.id', 'share_files.share_id')
    .select(['share_files.share_id', 'share_files.filename', 'shares.name'])
    .where('share_files.file_id', '=', fileId)
    .orderBy('share_files.created')
    .limit(1)
    .executeTakeFirst();
  return { shareId: row?.share_id ?? 'unknown-share', shareName: row?.name ?? null, fileName: row?.filename || fileId };
};

/** Points the binary at `to` and `location` if it is still recorded in store `from`; true when this call moved it. */
export const repointFile = async (db: Db, fileId: string, from: string, to: string, location: string): Promise<boolean> => {
  const r = await db
    .updateTable('file_meta')
    .set({ store: to, location })
    .where('file_id', '=', fileId)
    .where('store', '=', from)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
};
