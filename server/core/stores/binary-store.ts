import type { Readable } from 'node:stream';
import type { StoreType } from '../../config/types.js';

/**
 * Where the bytes of one uploaded file live: the file id (`file_meta.file_id`)
 * and the store-specific location kept in `file_meta.location` (a relative
 * path for the file-system store, `''` for stores that derive it from the id).
 */
export interface BinaryRef {
  fileId: string;
  location: string;
}

/** Positioned reads of one binary into the caller's buffers: nothing is allocated per read. */
export interface BinaryReader {
  /** Reads up to `into.length` bytes from `position`; 0 at the end. */
  read(into: Buffer, position: number): Promise<number>;
  close(): Promise<void>;
}

/** Names that help a person find a received file in a file-system store. */
export interface NameHint {
  shareId: string;
  shareName: string | null;
  fileName: string;
}

/**
 * A place for file bytes. Every store (database chunks, plain files, S3)
 * implements it and passes the same contract test suite
 * (`test/api/stores/store-contract.ts`).
 *
 * Appending is resumable: bytes that arrived before a failure stay stored and
 * `size` reports them, so a client can resume at that offset (tus).
 */
export interface BinaryStore {
  readonly id: string;
  readonly type: StoreType;
  /** Creates an empty binary and returns its location (to store in `file_meta.location`). */
  create(fileId: string, hint: NameHint): Promise<string>;
  /** Bytes stored so far; 0 for a binary that does not exist. */
  size(ref: BinaryRef): Promise<number>;
  /**
   * Appends `data` at `offset`, which must equal `size(ref)` (otherwise
   * `AppError('conflict')` and nothing is written). Stops with
   * `AppError('too-large')` once more than `maxBytes` would be written; the
   * bytes up to the limit stay stored. Resolves with the number of bytes this
   * call wrote. Store failures reject with the store's own error, so that
   * `database-domain-checks` can look at its message.
   */
  append(ref: BinaryRef, offset: number, data: AsyncIterable<Uint8Array>, maxBytes: number): Promise<number>;
  /** Bytes `[start, end)` as a stream (defaults: the whole binary). Never buffers the whole file. */
  read(ref: BinaryRef, start?: number, end?: number): Readable;
  /**
   * Opens the binary for positioned reads into the caller's buffers; offered
   * by the file-system and database stores. Rejects when it cannot be read.
   */
  openReader?(ref: BinaryRef): Promise<BinaryReader>;
  /** Removes the binary; a missing binary is not an error. */
  delete(ref: BinaryRef): Promise<void>;
  /**
   * Every binary in the store (orphan cleanup). The file-system store cannot
   * know file ids from its person-readable names: it yields `fileId: ''` with
   * the location, so match those by `file_meta.location` (and think twice
   * before deleting files a person may have put into that folder).
   */
  list(): AsyncIterable<BinaryRef>;
  /** Releases connections (S3 client); optional. */
  close?(): Promise<void>;
}

/** The enabled stores by id, and the one new files go to. */
export interface StoreRegistry {
  readonly defaultStore: BinaryStore;
  get(id: string): BinaryStore | undefined;
  all(): BinaryStore[];
  /** Closes every store; optional so that test doubles need not implement it. */
  close?(): Promise<void>;
}
