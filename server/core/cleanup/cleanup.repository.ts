import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { BinaryRef } from '../stores/binary-store.js';

type Db = Kysely<Database>;

/** Published shares whose publication ended before `before`. */
export const expiredPublishedShares = async (db: Db, before: number, limit: number): Promise<string[]> => {
  const rows = await db
    .selectFrom('publish_shares')
    .select('share_id')
    .where('enabled', '=', 1)
    .where('publish_until', '<', before)
    .limit(limit)
    .execute();
  return rows.map((r) => r.share_id);
};

/** Shares created before `before` that are not published now (never, or unpublished). */
export const staleUnpublishedShares = async (db: Db, before: number, limit: number): Promise<string[]> => {
  const rows = await db
    .selectFrom('shares')
    .leftJoin('publish_shares', 'publish_shares.share_id', 'shares.id')
    .select('shares.id')
    .where('shares.created', '<', before)
    .where((eb) => eb.or([eb('publish_shares.id', 'is', null), eb('publish_shares.enabled', '=', 0)]))
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
};

/** File data that no share references any more, created before `before`, with the store holding it. */
export const orphanedFiles = async (db: Db, before: number, limit: number): Promise<Array<BinaryRef & { store: string }>> => {
  const rows = await db
    .selectFrom('file_meta')
    .select(['file_meta.file_id', 'file_meta.location', 'file_meta.store'])
    .where('file_meta.created', '<', before)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('share_files').select('share_files.id').whereRef('share_files.file_id', '=', 'file_meta.file_id'))),
    )
    .limit(limit)
    .execute();
  return rows.map((r) => ({ fileId: r.file_id, location: r.location, store: r.store }));
};

/** Deletes the share rows (publish info and share-file rows go with them); returns how many were deleted. */
export const deleteShareRows = async (db: Db, ids: string[]): Promise<number> => {
  if (ids.length === 0) return 0;
  const res = await db.deleteFrom('shares').where('id', 'in', ids).executeTakeFirst();
  return Number(res.numDeletedRows);
};

/** Deletes a file-meta row unless a share references it again; true when this call deleted it. */
export const deleteOrphanedMeta = async (db: Db, fileId: string): Promise<boolean> => {
  const res = await db
    .deleteFrom('file_meta')
    .where('file_id', '=', fileId)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('share_files').select('share_files.id').where('share_files.file_id', '=', fileId))),
    )
    .executeTakeFirst();
  return Number(res.numDeletedRows) === 1;
};
