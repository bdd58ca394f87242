/**
 * The `default-database` store: the bytes of a file are rows of `file_chunks`
 * of `share.chunk-size` bytes each (the last one may be shorter), numbered
 * from 0. Works the same on SQLite, PostgreSQL and MariaDB.
 *
 * Appending at an offset inside the last chunk completes that chunk first
 * (the row is rewritten), then adds new rows. Every row is written by one
 * statement of its own, so the bytes stored before a failure stay and `size`
 * (the sum of `chunk_len`) tells the client where to resume. Reads use the
 * chunk lengths, not the configured chunk size, so files written with an
 * earlier `chunk-size` stay readable.
 */
import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { droppedExternalBytes } from '../../process/young-collection.js';
import type { BinaryRef, BinaryStore } from './binary-store.js';
import { asBuffer, joinInto, limitBytes, offsetConflict, writeInPieces } from './stream-util.js';

export interface DatabaseStoreOptions {
  id: string;
  db: Kysely<Database>;
  chunkSize: number;
  /** bytes fetched per query while reading (a few chunks); default 4 MiB */
  readBatchBytes?: number;
}

interface ChunkInfo {
  nr: number;
  len: number;
  /** byte offset of the chunk in the file */
  at: number;
}

const LIST_PAGE = 500;
/** bytes of staging buffers kept for the next appends */
const KEPT_STAGING_BYTES = 4 * 1024 * 1024;

/** Creates the database store over `file_chunks`. */
export const createDatabaseStore = (opts: DatabaseStoreOptions): BinaryStore => {
  const { id, db, chunkSize } = opts;
  const batchBytes = Math.max(opts.readBatchBytes ?? 4 * 1024 * 1024, chunkSize);
  // Staging buffers go back here when an append ends, so appends that follow (a guest's many small files) allocate none.
  const keptStaging: Buffer[] = [];
  const maxKeptStaging = Math.min(4, Math.floor(KEPT_STAGING_BYTES / chunkSize));

  const chunkInfos = async (fileId: string): Promise<ChunkInfo[]> => {
    const rows = await db
      .selectFrom('file_chunks')
      .select(['chunk_nr', 'chunk_len'])
      .where('file_id', '=', fileId)
      .orderBy('chunk_nr')
      .execute();
    let at = 0;
    return rows.map((r) => {
      const info = { nr: Number(r.chunk_nr), len: Number(r.chunk_len), at };
      at += info.len;
      return info;
    });
  };

  const size = async (ref: BinaryRef): Promise<number> => {
    const row = await db
      .selectFrom('file_chunks')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('chunk_len'), eb.lit(0)).as('total'))
      .where('file_id', '=', ref.fileId)
      .executeTakeFirst();
    return Number(row?.total ?? 0);
  };

  const lastChunk = async (fileId: string): Promise<{ nr: number; len: number } | undefined> => {
    const row = await db
      .selectFrom('file_chunks')
      .select(['chunk_nr', 'chunk_len'])
      .where('file_id', '=', fileId)
      .orderBy('chunk_nr', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row && { nr: Number(row.chunk_nr), len: Number(row.chunk_len) };
  };

  const chunkData = async (fileId: string, nr: number): Promise<Buffer> => {
    const row = await db
      .selectFrom('file_chunks')
      .select('chunk_data')
      .where('file_id', '=', fileId)
      .where('chunk_nr', '=', nr)
      .executeTakeFirstOrThrow();
    return asBuffer(row.chunk_data);
  };

  /** The bytes of `batch`, consecutive chunks of one file, in one query; throws when one is gone. */
  const chunkBytes = async (fileId: string, batch: ChunkInfo[]): Promise<Buffer[]> => {
    const rows = await db
      .selectFrom('file_chunks')
      .select(['chunk_nr', 'chunk_data'])
      .where('file_id', '=', fileId)
      .where('chunk_nr', '>=', batch[0]!.nr)
      .where('chunk_nr', '<=', batch[batch.length - 1]!.nr)
      .orderBy('chunk_nr')
      .execute();
    return batch.map((info, k) => {
      const row = rows[k];
      if (!row || Number(row.chunk_nr) !== info.nr) throw new Error(`Chunk ${info.nr} of file ${fileId} vanished while reading.`);
      return asBuffer(row.chunk_data);
    });
  };

  async function* readChunks(fileId: string, start: number, end: number): AsyncGenerator<Buffer> {
    if (end <= start) return;
    const wanted = (await chunkInfos(fileId)).filter((c) => c.at + c.len > start && c.at < end);
    let i = 0;
    while (i < wanted.length) {
      // a few chunks per query: never the whole file
      let j = i;
      let bytes = 0;
      while (j < wanted.length && (j === i || bytes + wanted[j]!.len <= batchBytes)) bytes += wanted[j++]!.len;
      const batch = wanted.slice(i, j);
      const datas = await chunkBytes(fileId, batch);
      for (const [k, info] of batch.entries()) {
        const data = datas[k]!;
        const from = Math.max(0, start - info.at);
        const to = Math.min(info.len, end - info.at);
        yield from === 0 && to === data.length ? data : data.subarray(from, to);
      }
      // every row came back as a new buffer from the driver
      droppedExternalBytes(bytes);
      i = j;
    }
  }

  /** The index of the chunk holding byte `position` (chunks sorted by `at`); `chunks.length` past the end. */
  const chunkAt = (chunks: ChunkInfo[], position: number): number => {
    let lo = 0;
    let hi = chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (chunks[mid]!.at + chunks[mid]!.len <= position) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };

  return {
    id,
    type: 'default-database',

    async create(fileId) {
      await db.deleteFrom('file_chunks').where('file_id', '=', fileId).execute();
      return '';
    },

    size,

    async append(ref, offset, data, maxBytes) {
      const last = await lastChunk(ref.fileId);
      const stored = await size(ref);
      if (offset !== stored) throw offsetConflict(offset, stored);
      // Complete a partial last chunk first; its bytes are rewritten with the new ones.
      const partial = last !== undefined && last.len < chunkSize ? last : undefined;
      const head = partial ? await chunkData(ref.fileId, partial.nr) : undefined;
      let nextNr = last === undefined ? 0 : last.nr + 1;
      let pendingHead = head;
      // Pieces made of several parts are copied into one buffer per call: a
      // piece is joined only after the one before it has been written.
      let staging: Buffer | undefined;
      const join = (parts: Buffer[]): Buffer =>
        parts.length === 1 ? parts[0]! : joinInto(parts, (staging ??= keptStaging.pop() ?? Buffer.allocUnsafeSlow(chunkSize)));
      const writePiece = async (parts: Buffer[]): Promise<void> => {
        if (pendingHead && partial) {
          const whole = join([pendingHead, ...parts]);
          pendingHead = undefined;
          await db
            .updateTable('file_chunks')
            .set({ chunk_len: whole.length, chunk_data: whole })
            .where('file_id', '=', ref.fileId)
            .where('chunk_nr', '=', partial.nr)
            .execute();
          return;
        }
        const piece = join(parts);
        await db
          .insertInto('file_chunks')
          .values({ file_id: ref.fileId, chunk_nr: nextNr, chunk_len: piece.length, chunk_data: piece })
          .execute();
        nextNr += 1;
      };
      try {
        return await writeInPieces(limitBytes(data, maxBytes), chunkSize, partial ? chunkSize - partial.len : 0, writePiece);
      } finally {
        // the driver is done with it: every statement that used it has completed
        if (staging && keptStaging.length < maxKeptStaging) keptStaging.push(staging);
      }
    },

    read(ref, start = 0, end = Number.MAX_SAFE_INTEGER) {
      return Readable.from(readChunks(ref.fileId, start, end), { objectMode: false, highWaterMark: 1 });
    },

    // Rows are copied into the caller's buffer and dropped at once: they die young, where rows
    // handed on as chunks outlive a few young collections, reach the old generation and pile up
    // until a full one (a ZIP of 1 GiB held 196 MB instead of 120).
    async openReader(ref) {
      const chunks = await chunkInfos(ref.fileId);
      return {
        async read(into, position) {
          const first = chunkAt(chunks, position);
          if (first >= chunks.length || into.length === 0) return 0;
          let last = first;
          while (last + 1 < chunks.length && chunks[last + 1]!.at < position + into.length) last++;
          const batch = chunks.slice(first, last + 1);
          const datas = await chunkBytes(ref.fileId, batch);
          let filled = 0;
          for (const [k, info] of batch.entries()) filled += datas[k]!.copy(into, filled, position + filled - info.at, info.len);
          droppedExternalBytes(batch.reduce((n, c) => n + c.len, 0));
          return filled;
        },
        close: async () => undefined,
      };
    },

    async delete(ref) {
      await db.deleteFrom('file_chunks').where('file_id', '=', ref.fileId).execute();
    },

    async *list() {
      let after: string | undefined;
      for (;;) {
        let q = db.selectFrom('file_chunks').select('file_id').distinct().orderBy('file_id').limit(LIST_PAGE);
        if (after !== undefined) q = q.where('file_id', '>', after);
        const rows = await q.execute();
        for (const r of rows) yield { fileId: r.file_id, location: '' };
        if (rows.length < LIST_PAGE) return;
        after = rows[rows.length - 1]!.file_id;
      }
    },
  };
};
