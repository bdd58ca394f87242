/**
 * Writes of `file_meta` and `share_files` for uploads, and the reads the
 * upload and checksum code needs. Plain functions taking `db` (or a
 * transaction) first, so one transaction can span several of them.
 *
 * A file is complete when `share_files.real_size` equals `file_meta.length`.
 * `file_meta.length` is the declared length while an upload runs (it is the
 * file's reservation against the share's `max-size`) and the real length once
 * the file completes.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { BinaryRef } from '../stores/binary-store.js';

type Db = Kysely<Database>;

export interface NewFile {
  /** the share-file id (API and tus id) */
  id: string;
  /** the binary id (`file_meta.file_id`) */
  fileId: string;
  shareId: string;
  filename: string;
  mimetype: string;
  /** declared length: reserved against the share's quota */
  length: number;
  store: string;
  location: string;
  created: number;
}

/** One uploaded file as the upload code sees it. */
export interface UploadFile {
  id: string;
  shareId: string;
  fileId: string;
  filename: string;
  mimetype: string;
  length: number;
  realSize: number;
  checksum: string;
  store: string;
  location: string;
}

export const refOf = (f: { fileId: string; location: string }): BinaryRef => ({ fileId: f.fileId, location: f.location });

/** Inserts the metadata row (checksum `''`) and the share-file row (`real_size` 0). */
export const insertFile = async (db: Db, f: NewFile): Promise<void> => {
  await db
    .insertInto('file_meta')
    .values({
      file_id: f.fileId,
      mimetype: f.mimetype,
      length: f.length,
      checksum: '',
      created: f.created,
      store: f.store,
      location: f.location,
    })
    .execute();
  await db
    .insertInto('share_files')
    .values({ id: f.id, share_id: f.shareId, file_id: f.fileId, filename: f.filename, created: f.created, real_size: 0 })
    .execute();
};

/** The file with share-file id `id`, or undefined. */
export const findFile = async (db: Db, id: string): Promise<UploadFile | undefined> => {
  const row = await db
    .selectFrom('share_files as sf')
    .innerJoin('file_meta as fm', 'fm.file_id', 'sf.file_id')
    .select([
      'sf.id',
      'sf.share_id',
      'sf.file_id',
      'sf.filename',
      'sf.real_size',
      'fm.mimetype',
      'fm.length',
      'fm.checksum',
      'fm.store',
      'fm.location',
    ])
    .where('sf.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    shareId: row.share_id,
    fileId: row.file_id,
    filename: row.filename ?? '',
    mimetype: row.mimetype,
    length: Number(row.length),
    realSize: Number(row.real_size),
    checksum: row.checksum,
    store: row.store,
    location: row.location,
  };
};

/** Sets the received byte count of a share file. */
export const setRealSize = async (db: Db, id: string, size: number): Promise<void> => {
  await db.updateTable('share_files').set({ real_size: size }).where('id', '=', id).execute();
};

/** Sets the reserved (declared) length of a file that is still uploading. */
export const setLength = async (db: Db, fileId: string, length: number): Promise<void> => {
  await db.updateTable('file_meta').set({ length }).where('file_id', '=', fileId).execute();
};

/** How many files a share holds and the sum of their (declared or real) lengths, in one read. */
export const shareUsage = async (db: Db, shareId: string): Promise<{ files: number; used: number }> => {
  const row = await db
    .selectFrom('share_files as sf')
    .leftJoin('file_meta as fm', 'fm.file_id', 'sf.file_id')
    .select((eb) => [eb.fn.countAll<number | string | bigint>().as('n'), eb.fn.coalesce(eb.fn.sum<number>('fm.length'), eb.lit(0)).as('total')])
    .where('sf.share_id', '=', shareId)
    .executeTakeFirst();
  return { files: Number(row?.n ?? 0), used: Number(row?.total ?? 0) };
};

/** The sum of the (declared or real) lengths of the share's files: what counts against `max-size`. */
export const shareSize = async (db: Db, shareId: string): Promise<number> => (await shareUsage(db, shareId)).used;

/** The checksum as it is stored: lower-case hex SHA-256; anything else is a bug, not input. */
const sha256Hex = (checksum: string): string => {
  if (!/^[0-9a-f]{64}$/.test(checksum)) throw new Error(`Not a SHA-256 hex checksum: ${checksum}`);
  return checksum;
};

/**
 * Marks a file complete: its length and received size become `length`, its
 * MIME type the detected one. The checksum is written only into a row whose
 * checksum is still `''` and never replaced by `''`, so a late metadata write
 * cannot wipe an already computed checksum.
 */
export const completeFile = async (
  db: Db,
  f: { id: string; fileId: string; length: number; mimetype: string; checksum?: string | undefined; crc32?: number | undefined },
): Promise<void> => {
  const checksum = f.checksum ? sha256Hex(f.checksum) : undefined;
  await db
    .updateTable('file_meta')
    .set((eb) => ({
      length: f.length,
      mimetype: f.mimetype,
      // never replaces a checksum already computed
      ...(checksum ? { checksum: eb.case().when('checksum', '=', '').then(checksum).else(eb.ref('checksum')).end() } : {}),
      ...(f.crc32 === undefined ? {} : { crc32: f.crc32 }),
    }))
    .where('file_id', '=', f.fileId)
    .execute();
  await setRealSize(db, f.id, f.length);
};

/** Writes a lower-case hex checksum into the row if its checksum is still `''`; true when written. */
export const writeChecksum = async (db: Db, fileId: string, checksum: string): Promise<boolean> => {
  const r = await db
    .updateTable('file_meta')
    .set({ checksum: sha256Hex(checksum) })
    .where('file_id', '=', fileId)
    .where('checksum', '=', '')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
};

/** Deletes the metadata row alone. The binary is the caller's. */
export const deleteFileMeta = async (db: Db, fileId: string): Promise<void> => {
  await db.deleteFrom('file_meta').where('file_id', '=', fileId).execute();
};

/** Deletes the share-file rows of a binary, then its metadata row. The binary is the caller's. */
export const deleteFileRows = async (db: Db, fileId: string): Promise<void> => {
  await db.deleteFrom('share_files').where('file_id', '=', fileId).execute();
  await deleteFileMeta(db, fileId);
};

/** The store and location of a binary whose metadata row exists. */
export const findStoredAt = async (db: Db, fileId: string): Promise<{ store: string; location: string } | undefined> =>
  db.selectFrom('file_meta').select(['store', 'location']).where('file_id', '=', fileId).executeTakeFirst();

/** Whether the share-file `id` belongs to share `shareId`. */
export const fileInShare = async (db: Db, shareId: string, id: string): Promise<boolean> => {
  const row = await db.selectFrom('share_files').select('id').where('id', '=', id).where('share_id', '=', shareId).executeTakeFirst();
  return row !== undefined;
};

/**
 * Binary ids of complete files whose checksum is still `''`, in file-id order
 * after `after` (paging for the checksum queue's start-up scan).
 */
export const pendingChecksums = async (db: Db, after: string, limit: number): Promise<string[]> => {
  const rows = await db
    .selectFrom('file_meta as fm')
    .innerJoin('share_files as sf', 'sf.file_id', 'fm.file_id')
    .select('fm.file_id')
    .where('fm.checksum', '=', '')
    .whereRef('sf.real_size', '=', 'fm.length')
    .where('fm.file_id', '>', after)
    .orderBy('fm.file_id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.file_id);
};

/** What the checksum queue needs of a binary: where it is and whether it is complete and still without checksum. */
export const checksumTarget = async (
  db: Db,
  fileId: string,
): Promise<{ store: string; location: string; length: number; complete: boolean; checksum: string } | undefined> => {
  const row = await db
    .selectFrom('file_meta as fm')
    .innerJoin('share_files as sf', 'sf.file_id', 'fm.file_id')
    .select(['fm.store', 'fm.location', 'fm.length', 'fm.checksum', 'sf.real_size'])
    .where('fm.file_id', '=', fileId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    store: row.store,
    location: row.location,
    length: Number(row.length),
    complete: Number(row.real_size) === Number(row.length),
    checksum: row.checksum,
  };
};
