/**
 * Shares and their files: reads, writes, who may access them, and the share
 * row lock (publish rows: `publish.repository.ts`). Plain functions taking
 * `db` (or a transaction) first; rows are mapped here and never leave.
 */
import type { Kysely, Transaction, Updateable } from 'kysely';
import { notFound } from '../../common/errors.js';
import type { Database, ShareTable } from '../../db/schema.js';
import type { BinaryRef } from '../stores/binary-store.js';
import type { Accessor } from './accessor.js';
import type { ShareFile } from './share.types.js';

type Db = Kysely<Database>;

export interface ShareRecord {
  id: string;
  accountId: string;
  aliasId: string | null;
  aliasName: string | null;
  name: string | null;
  /** whether `name` is the one the server composed for a guest's upload */
  autoNamed: boolean;
  /** the guest's name of an upload, when given */
  sender: string | null;
  validity: number;
  maxViews: number;
  /** the stored password hash, null when the share has none */
  passwordHash: string | null;
  description: string | null;
  created: number;
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
  /** CRC-32 of the bytes when it was computed as they arrived */
  crc32?: number | undefined;
  created: number;
  store: string;
  ref: BinaryRef;
}

const num = (v: unknown): number => Number(v ?? 0);

/** Whether a share's name is the one the server composed (nobody renamed it since). */
export const isAutoNamed = (name: string | null, autoName: string | null): boolean => !!name && name === autoName;

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
    autoNamed: isAutoNamed(row.name, row.auto_name),
    sender: row.sender,
    validity: num(row.validity),
    maxViews: num(row.max_views),
    passwordHash: row.password,
    description: row.description,
    created: num(row.created),
  };
};

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
      'file_meta.crc32 as crc32',
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
  crc32: number | null;
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
  crc32: r.crc32 === null ? undefined : Number(r.crc32),
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
export const folderNameOf = async (db: Db, shareId: string): Promise<string | null> => {
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

/** The size limit of the upload link a share came through; null when it has none or came through none. */
export const linkMaxSizeOf = async (db: Db, shareId: string): Promise<number | null> => {
  const row = await db
    .selectFrom('shares')
    .innerJoin('aliases', 'aliases.id', 'shares.alias_id')
    .select('aliases.max_size')
    .where('shares.id', '=', shareId)
    .executeTakeFirst();
  return row?.max_size == null ? null : Number(row.max_size);
};

/**
 * The ids of the shares an accessor may see and manage, as a subquery
 * condition: a user's own shares and the shares uploaded through aliases the
 * user is a member of; for a guest, only the shares of that alias.
 */
export const accessibleShares = (db: Db, a: Accessor) => {
  if (a.kind === 'alias') {
    return db.selectFrom('shares').select('shares.id').where('shares.alias_id', '=', a.aliasId).where('shares.account_id', '=', a.ownerId);
  }
  return db
    .selectFrom('shares')
    .select('shares.id')
    .where((eb) =>
      eb.or([
        eb('shares.account_id', '=', a.accountId),
        eb(
          'shares.alias_id',
          'in',
          eb.selectFrom('alias_members').select('alias_members.alias_id').where('alias_members.account_id', '=', a.accountId),
        ),
      ]),
    );
};

/** Whether the accessor may see and manage the share. */
export const canAccessShare = async (db: Db, a: Accessor, shareId: string): Promise<boolean> => {
  const row = await accessibleShares(db, a).where('shares.id', '=', shareId).executeTakeFirst();
  return row !== undefined;
};

/** A new share: a share record without the alias name, which the alias row gives. */
export type NewShare = Omit<ShareRecord, 'aliasName' | 'autoNamed' | 'sender'> & { sender?: string | null };

export const insertShare = async (db: Db, s: NewShare): Promise<void> => {
  await db
    .insertInto('shares')
    .values({
      id: s.id,
      account_id: s.accountId,
      alias_id: s.aliasId,
      name: s.name,
      validity: s.validity,
      max_views: s.maxViews,
      password: s.passwordHash,
      description: s.description,
      created: s.created,
      sender: s.sender ?? null,
    })
    .execute();
};

/** Marks a new share as created by the guest with `guestKey`. */
export const setGuestKey = async (db: Db, shareId: string, guestKey: string): Promise<void> => {
  await db.updateTable('shares').set({ guest_key: guestKey }).where('id', '=', shareId).execute();
};

/**
 * The shares that count against an upload link's hourly allowance since
 * `since`: those through the alias that received a byte (`link`), and those
 * the guest `guestKey` created through it, empty ones included (`guest`);
 * each with when the oldest was created (0: none).
 */
export const allowanceShares = async (
  db: Db,
  aliasId: string,
  guestKey: string,
  since: number,
): Promise<{ link: { count: number; oldest: number }; guest: { count: number; oldest: number } }> => {
  const recent = db.selectFrom('shares').where('shares.alias_id', '=', aliasId).where('shares.created', '>', since);
  const link = await recent
    .where((eb) => eb.exists(eb.selectFrom('share_files').select('share_files.id').whereRef('share_files.share_id', '=', 'shares.id').where('share_files.real_size', '>', 0)))
    .select((eb) => [eb.fn.countAll<number | string | bigint>().as('n'), eb.fn.min('shares.created').as('oldest')])
    .executeTakeFirstOrThrow();
  const guest = await recent
    .where('shares.guest_key', '=', guestKey)
    .select((eb) => [eb.fn.countAll<number | string | bigint>().as('n'), eb.fn.min('shares.created').as('oldest')])
    .executeTakeFirstOrThrow();
  return {
    link: { count: Number(link.n), oldest: Number(link.oldest) },
    guest: { count: Number(guest.n), oldest: Number(guest.oldest) },
  };
};

/** The columns of a share that change after its creation; only those given are written. */
export interface ShareChanges {
  name?: string | null;
  description?: string | null;
  validity?: number;
  maxViews?: number;
  passwordHash?: string | null;
  sender?: string;
}

export const updateShare = async (db: Db, shareId: string, c: ShareChanges): Promise<void> => {
  const values: Updateable<ShareTable> = {};
  if (c.name !== undefined) values.name = c.name;
  if (c.description !== undefined) values.description = c.description;
  if (c.validity !== undefined) values.validity = c.validity;
  if (c.maxViews !== undefined) values.max_views = c.maxViews;
  if (c.passwordHash !== undefined) values.password = c.passwordHash;
  if (c.sender !== undefined) values.sender = c.sender;
  await db.updateTable('shares').set(values).where('id', '=', shareId).execute();
};

export const findValidity = async (db: Db, shareId: string): Promise<number> => {
  const row = await db.selectFrom('shares').select('validity').where('id', '=', shareId).executeTakeFirstOrThrow();
  return Number(row.validity);
};

/** What naming a guest share needs: its name, the sender's name, the name the server composed (while it stands). */
export interface ShareNaming {
  name: string | null;
  sender: string | null;
  autoName: string | null;
  created: number;
}

export const findShareNaming = async (db: Db, shareId: string): Promise<ShareNaming | undefined> => {
  const row = await db.selectFrom('shares').select(['name', 'sender', 'auto_name', 'created']).where('id', '=', shareId).executeTakeFirst();
  return row && { name: row.name, sender: row.sender, autoName: row.auto_name, created: Number(row.created) };
};

/** Gives the share a name the server composed, unless somebody named it (checked on the row it updates). */
export const setAutoName = async (db: Db, shareId: string, name: string): Promise<void> => {
  await db
    .updateTable('shares')
    .set({ name, auto_name: name })
    .where('id', '=', shareId)
    .where((eb) => eb.or([eb('name', 'is', null), eb('name', '=', ''), eb('name', '=', eb.ref('auto_name'))]))
    .execute();
};

/** The declared length and type of each complete file of a share (stored size equal to the declared length). */
export const findCompleteFiles = async (db: Db, shareId: string): Promise<{ length: number; mimetype: string }[]> => {
  const rows = await db
    .selectFrom('share_files')
    .innerJoin('file_meta', 'file_meta.file_id', 'share_files.file_id')
    .select(['file_meta.length', 'file_meta.mimetype'])
    .where('share_files.share_id', '=', shareId)
    .whereRef('share_files.real_size', '=', 'file_meta.length')
    .execute();
  return rows.map((r) => ({ length: Number(r.length), mimetype: r.mimetype }));
};

/** Deletes the share row alone; gives how many rows went (0 or 1). */
export const deleteShareRow = async (db: Db, shareId: string): Promise<number> => {
  const res = await db.deleteFrom('shares').where('id', '=', shareId).executeTakeFirst();
  return Number(res.numDeletedRows);
};

/**
 * Deletes a share with its file and publish rows, explicitly rather than left
 * to the foreign keys, so every database does the same. The file metadata
 * stays (`deleteUnreferencedMeta`). Run inside a transaction.
 */
export const deleteShareWithRows = async (db: Db, shareId: string): Promise<void> => {
  await db.deleteFrom('share_files').where('share_id', '=', shareId).execute();
  await db.deleteFrom('publish_shares').where('share_id', '=', shareId).execute();
  await deleteShareRow(db, shareId);
};

/** Deletes one share-file row of the share; the file metadata stays. */
export const deleteShareFileRow = async (db: Db, shareId: string, shareFileId: string): Promise<void> => {
  await db.deleteFrom('share_files').where('id', '=', shareFileId).where('share_id', '=', shareId).execute();
};

/**
 * Removes the metadata of these files where no share file refers to them any
 * more, and gives the files whose bytes may go.
 */
export const deleteUnreferencedMeta = async (db: Db, files: FileRecord[]): Promise<FileRecord[]> => {
  const fileIds = files.map((f) => f.fileId);
  if (!fileIds.length) return [];
  await db
    .deleteFrom('file_meta')
    .where('file_id', 'in', fileIds)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('share_files').select('share_files.id').whereRef('share_files.file_id', '=', 'file_meta.file_id'))))
    .execute();
  const kept = await db.selectFrom('file_meta').select('file_id').where('file_id', 'in', fileIds).execute();
  const keep = new Set(kept.map((r) => r.file_id));
  return files.filter((f) => !keep.has(f.fileId));
};
