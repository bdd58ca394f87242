/**
 * Reads of shares, their publish rows and their files, and the share row lock.
 * Plain functions taking `db` (or a transaction) first; rows are mapped here
 * and never leave.
 */
import type { Kysely, Transaction } from 'kysely';
import { notFound } from '../../common/errors.js';
import { toBool, type Database } from '../../db/schema.js';
import type { BinaryRef } from '../stores/binary-store.js';
import type { ShareFile, SharePublish } from './share.types.js';

type Db = Kysely<Database>;

export interface ShareRecord {
  id: string;
  accountId: string;
  aliasId: string | null;
  aliasName: string | null;
  name: string | null;
  validity: number;
  maxViews: number;
  /** the stored password hash, null when the share has none */
  passwordHash: string | null;
  description: string | null;
  created: number;
}

export interface PublishRecord {
  id: string;
  shareId: string;
  enabled: boolean;
  views: number;
  lastAccess: number | null;
  publishDate: number;
  publishUntil: number;
}

/** A file of a share with where its bytes live. */
export interface FileRecord {
  id: string;
  shareId: string;
  fileId: string;
  filename: string;
  mimetype: string;
  length: number;
  storedSize: number;
  /** lower-case SHA-256 hex, `''` while not yet known */
  checksum: string;
  created: number;
  store: string;
  ref: BinaryRef;
}

const num = (v: unknown): number => Number(v ?? 0);

export const findShare = async (db: Db, shareId: string): Promise<ShareRecord | undefined> => {
  const row = await db
    .selectFrom('shares')
    .leftJoin('aliases', 'aliases.id', 'shares.alias_id')
    .selectAll('shares')
    .select('aliases.name as alias_name')
    .where('shares.id', '=', shareId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    accountId: row.account_id,
    aliasId: row.alias_id,
    aliasName: row.alias_name ?? null,
    name: row.name,
    validity: num(row.validity),
    maxViews: num(row.max_views),
    passwordHash: row.password,
    description: row.description,
    created: num(row.created),
  };
};

type PublishRow = Database['publish_shares'];

const toPublish = (row: PublishRow): PublishRecord => ({
  id: row.id,
  shareId: row.share_id,
  enabled: toBool(row.enabled),
  views: num(row.views),
  lastAccess: row.last_access === null ? null : num(row.last_access),
  publishDate: num(row.publish_date),
  publishUntil: num(row.publish_until),
});

export const findPublishOfShare = async (db: Db, shareId: string): Promise<PublishRecord | undefined> => {
  const row = await db.selectFrom('publish_shares').selectAll().where('share_id', '=', shareId).executeTakeFirst();
  return row && toPublish(row);
};

export const findPublishById = async (db: Db, publishId: string): Promise<PublishRecord | undefined> => {
  const row = await db.selectFrom('publish_shares').selectAll().where('id', '=', publishId).executeTakeFirst();
  return row && toPublish(row);
};

/** The API view of a publish row; expired once `publishUntil` is reached. */
export const toSharePublish = (p: PublishRecord, now: number): SharePublish => ({
  id: p.id,
  enabled: p.enabled,
  views: p.views,
  publishDate: p.publishDate,
  publishUntil: p.publishUntil,
  expired: p.publishUntil <= now,
  lastAccess: p.lastAccess,
});

const fileQuery = (db: Db) =>
  db
    .selectFrom('share_files')
    .innerJoin('file_meta', 'file_meta.file_id', 'share_files.file_id')
    .select([
      'share_files.id as id',
      'share_files.share_id as share_id',
      'share_files.file_id as file_id',
      'share_files.filename as filename',
      'share_files.created as created',
      'share_files.real_size as real_size',
      'file_meta.mimetype as mimetype',
      'file_meta.length as length',
      'file_meta.checksum as checksum',
      'file_meta.store as store',
      'file_meta.location as location',
    ]);

type FileRow = {
  id: string;
  share_id: string;
  file_id: string;
  filename: string | null;
  created: number;
  real_size: number;
  mimetype: string;
  length: number;
  checksum: string;
  store: string;
  location: string;
};

const toFile = (r: FileRow): FileRecord => ({
  id: r.id,
  shareId: r.share_id,
  fileId: r.file_id,
  filename: r.filename ?? '',
  mimetype: r.mimetype,
  length: num(r.length),
  storedSize: num(r.real_size),
  checksum: r.checksum,
  created: num(r.created),
  store: r.store,
  ref: { fileId: r.file_id, location: r.location },
});

/** The files of a share, oldest first (then by id, for a stable order). */
export const findFilesOfShare = async (db: Db, shareId: string): Promise<FileRecord[]> => {
  const rows = await fileQuery(db).where('share_files.share_id', '=', shareId).orderBy('share_files.created').orderBy('share_files.id').execute();
  return rows.map(toFile);
};

/** One file of one share; undefined when the file does not belong to that share. */
export const findFileOfShare = async (db: Db, shareId: string, shareFileId: string): Promise<FileRecord | undefined> => {
  const row = await fileQuery(db).where('share_files.share_id', '=', shareId).where('share_files.id', '=', shareFileId).executeTakeFirst();
  return row && toFile(row);
};

export const toShareFile = (f: FileRecord): ShareFile => ({
  id: f.id,
  filename: f.filename,
  size: f.length,
  mimetype: f.mimetype,
  checksum: f.checksum,
  storedSize: f.storedSize,
  created: f.created,
});

/** A file is complete once every declared byte is stored. */
export const isComplete = (f: FileRecord): boolean => f.storedSize >= f.length;

/**
 * The name a share's files are filed under in a file-system store: the name a
 * person gave it, never one the server composed (that one changes as files
 * arrive, and the files of one share belong in one folder); null for none.
 */
export const folderNameOf = async (db: Kysely<Database>, shareId: string): Promise<string | null> => {
  const row = await db.selectFrom('shares').select(['name', 'auto_name']).where('id', '=', shareId).executeTakeFirstOrThrow();
  return row.name && row.name !== row.auto_name ? row.name : null;
};

/**
 * Locks the share row for the rest of the transaction (an UPDATE that changes
 * nothing: a row lock on PostgreSQL and MariaDB, the write lock on SQLite), so
 * transactions that change one share run one after the other; `not-found` when
 * the share is gone. Gives the size limit of the upload link it came through
 * (null: none), which the quota needs under the same lock.
 */
export const lockShare = async (trx: Transaction<Database>, shareId: string): Promise<{ linkMaxSize: number | null }> => {
  await trx
    .updateTable('shares')
    .set((eb) => ({ account_id: eb.ref('account_id') }))
    .where('id', '=', shareId)
    .execute();
  const row = await trx
    .selectFrom('shares')
    .leftJoin('aliases', 'aliases.id', 'shares.alias_id')
    .select(['shares.id', 'aliases.max_size'])
    .where('shares.id', '=', shareId)
    .executeTakeFirst();
  if (!row) throw notFound('The share');
  return { linkMaxSize: row.max_size === null ? null : Number(row.max_size) };
};
