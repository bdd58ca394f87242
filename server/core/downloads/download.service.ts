/**
 * Finding the files an owner or a public reader may download, and reading
 * their bytes from the stores. Access to the share is checked by the caller
 * (`requireShareAccess` for owners, `openPublicShare` for the public).
 */
import type { Readable, Writable } from 'node:stream';
import type { Kysely } from 'kysely';
import { AppError, notFound } from '../../common/errors.js';
import { isIdent } from '../../common/ids.js';
import type { Database } from '../../db/schema.js';
import type { Accessor } from '../shares/accessor.js';
import { requireShareAccess } from '../shares/share-access.js';
import { findFileOfShare, findFilesOfShare, findShare, isComplete, type FileRecord } from '../shares/share.repository.js';
import type { BinaryReader, BinaryStore, StoreRegistry } from '../stores/binary-store.js';
import { uniqueEntryNames } from './zip-names.js';
import { writeZip, type ZipEntry } from './zip-writer.js';

export interface DownloadDeps {
  db: Kysely<Database>;
  stores: StoreRegistry;
  /** `share.zip-max-size`; 0 disables ZIP downloads */
  zipMaxSize: number;
}

export interface DownloadService {
  /** Signed-in users and guests: a file of a share they may manage; 404 when either is not theirs. */
  ownerFile(a: Accessor, shareId: string, shareFileId: string): Promise<FileRecord>;
  /** After `openPublicShare`: a file of that share; 404 when the file belongs to another share. */
  shareFile(shareId: string, shareFileId: string): Promise<FileRecord>;
  /** Signed-in users and guests: checks access, then gives the share's name and the ZIP entries (see `zipEntries`). */
  ownerZipEntries(a: Accessor, shareId: string, selection: string[]): Promise<{ name: string | null; entries: ZipEntry[] }>;
  /**
   * The complete files of a share as ZIP entries with unique, safe names:
   * the selected share-file ids (unknown or invalid ids are ignored), or all
   * files when nothing is selected. 404 when ZIP downloads are disabled or
   * the selection is larger than `zip-max-size`.
   */
  zipEntries(shareId: string, selection: string[]): Promise<ZipEntry[]>;
  /** Bytes `[start, end)` of a file from its store. */
  read(file: FileRecord, start: number, end: number): Readable;
  /** Positioned reads of a file, when its store offers them (`BinaryStore.openReader`); undefined otherwise. */
  openReader(file: FileRecord): Promise<BinaryReader> | undefined;
  /** Streams the entries as a ZIP into `out` (see `writeZip`). */
  writeZip(entries: ZipEntry[], out: Writable): Promise<void>;
}

export const createDownloadService = (d: DownloadDeps): DownloadService => {
  const storeOf = (file: FileRecord): BinaryStore => {
    const store = d.stores.get(file.store);
    if (!store) throw new AppError('internal', `The store '${file.store}' of a file is not enabled.`);
    return store;
  };
  const shareFile = async (shareId: string, shareFileId: string): Promise<FileRecord> => {
    const f = await findFileOfShare(d.db, shareId, shareFileId);
    if (!f) throw notFound('The file');
    return f;
  };

  const zipEntries = async (shareId: string, selection: string[]): Promise<ZipEntry[]> => {
    if (d.zipMaxSize <= 0) throw notFound('The ZIP download');
    const wanted = new Set(selection.filter((id) => isIdent(id)));
    const files = (await findFilesOfShare(d.db, shareId)).filter(
      (f) => isComplete(f) && (selection.length === 0 || wanted.has(f.id)),
    );
    const total = files.reduce((sum, f) => sum + f.length, 0);
    if (total > d.zipMaxSize) throw notFound('A ZIP of this size');
    const names = uniqueEntryNames(files.map((f) => ({ name: f.filename, fallback: f.id })));
    return files.map((file, i) => ({ name: names[i]!, file }));
  };

  return {
    async ownerFile(a, shareId, shareFileId) {
      await requireShareAccess(d.db, a, shareId);
      return shareFile(shareId, shareFileId);
    },
    shareFile,
    async ownerZipEntries(a, shareId, selection) {
      await requireShareAccess(d.db, a, shareId);
      const share = await findShare(d.db, shareId);
      return { name: share?.name ?? null, entries: await zipEntries(shareId, selection) };
    },
    zipEntries,
    read(file, start, end) {
      return storeOf(file).read(file.ref, start, end);
    },
    openReader(file) {
      return storeOf(file).openReader?.(file.ref);
    },
    writeZip: (entries, out) => writeZip(entries, d.stores, out),
  };
};
