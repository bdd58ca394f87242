/**
 * Deleting shares and single files: the rows go in one transaction, then the
 * binaries through their stores. A binary whose deletion fails is logged and
 * left to the cleanup job (orphaned file data).
 */
import type { Kysely } from 'kysely';
import type { Logger } from '../../common/log.js';
import { notFound } from '../../common/errors.js';
import { ok, type BasicResult } from '../../common/result.js';
import type { Database } from '../../db/schema.js';
import type { StoreRegistry } from '../stores/binary-store.js';
import type { Accessor } from './accessor.js';
import { requireShareAccess } from './share-access.js';
import {
  deleteShareFileRow,
  deleteShareWithRows,
  deleteUnreferencedMeta,
  findFileOfShare,
  findFilesOfShare,
  type FileRecord,
} from './share.repository.js';

type Db = Kysely<Database>;

export interface DeleteDeps {
  db: Db;
  stores: StoreRegistry;
  log: Logger;
}

const deleteBinaries = async (d: DeleteDeps, files: FileRecord[]): Promise<void> => {
  for (const f of files) {
    const store = d.stores.get(f.store);
    if (!store) {
      d.log.warn('The store of a deleted file is not enabled; its bytes stay', { fileId: f.fileId, store: f.store });
      continue;
    }
    try {
      await store.delete(f.ref);
    } catch (e) {
      d.log.warn('Could not delete the bytes of a file', { fileId: f.fileId, store: f.store, error: String(e) });
    }
  }
};

/** Signed-in users and guests: deletes a share they may manage, with its files (404 otherwise). */
export const deleteShare = async (d: DeleteDeps, a: Accessor, shareId: string): Promise<BasicResult> => {
  await requireShareAccess(d.db, a, shareId);
  const files = await d.db.transaction().execute(async (tx) => {
    const list = await findFilesOfShare(tx, shareId);
    await deleteShareWithRows(tx, shareId);
    return deleteUnreferencedMeta(tx, list);
  });
  await deleteBinaries(d, files);
  return ok('share.deleted', 'Share deleted.');
};

/**
 * Signed-in users and guests: deletes one file of a share they may manage.
 * 404 when the share is not theirs or the file belongs to another share.
 */
export const deleteShareFile = async (d: DeleteDeps, a: Accessor, shareId: string, shareFileId: string): Promise<BasicResult> => {
  await requireShareAccess(d.db, a, shareId);
  const file = await d.db.transaction().execute(async (tx) => {
    const f = await findFileOfShare(tx, shareId, shareFileId);
    if (!f) return undefined;
    await deleteShareFileRow(tx, shareId, f.id);
    return deleteUnreferencedMeta(tx, [f]);
  });
  if (!file) throw notFound('The file');
  await deleteBinaries(d, file);
  return ok('share.file-deleted', 'File deleted.');
};
