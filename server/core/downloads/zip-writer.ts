/**
 * Streams files from their stores into a ZIP written to `out`, one file at a
 * time with back-pressure, ZIP64 when needed. Memory stays constant whatever
 * the number and size of the files: a store that offers positioned reads is
 * read into one buffer that is filled again only once `out` has taken its
 * bytes; other stores are streamed chunk by chunk.
 *
 * A stored entry has its CRC and sizes in its local header, so that a reader
 * that streams the archive (libarchive, Java's ZipInputStream) knows where
 * it ends: the CRC computed when the file was uploaded, else (files whose
 * bytes were not all seen in order by one server, files stored before it
 * was kept) a stored file larger than what was read to choose the method is
 * read twice, once for its CRC. Only a deflated entry, whose end the deflate
 * stream marks itself, is followed by a data descriptor. The central
 * directory follows the last entry. When `out` fails or closes early (the
 * client went away), the read stops and the archive is abandoned.
 */
import type { Readable, Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { crc32, createDeflateRaw } from 'node:zlib';
import { AppError } from '../../common/errors.js';
import { endOut, writeOut } from '../../common/write-out.js';
import type { FileRecord } from '../shares/share.repository.js';
import type { BinaryReader, StoreRegistry } from '../stores/binary-store.js';
import { SAMPLE_BYTES, shouldStore } from './zip-compress.js';

export interface ZipEntry {
  name: string;
  file: FileRecord;
}

/** The size of one read; at least `SAMPLE_BYTES`, so that the first read holds the sample. */
const READ_BYTES = 1024 * 1024;
const DEFLATE_LEVEL = 6;

const MAX16 = 0xffff;
const MAX32 = 0xffffffff;
/**
 * Entries of at least this size are written as ZIP64: deflating bytes that
 * do not compress adds a few bytes per block, so an entry just under 4 GiB
 * may still outgrow 32 bits.
 */
const ZIP64_ENTRY = 0xff000000;

const FLAG_DATA_DESCRIPTOR = 1 << 3;
const FLAG_UTF8 = 1 << 11;
const METHOD_STORE = 0;
const METHOD_DEFLATE = 8;
const VERSION_DEFAULT = 20;
const VERSION_ZIP64 = 45;
/** made by Unix (3), so that the permissions below are read */
const VERSION_MADE_BY = (3 << 8) | VERSION_ZIP64;
/** a regular file, rw-r--r-- */
const EXTERNAL_ATTRS = (0o100644 << 16) >>> 0;

/** What the central directory needs of an entry once it is written. */
interface Written {
  name: Buffer;
  method: number;
  /** CRC and sizes follow the data (deflated entries) instead of being in the local header */
  descriptor: boolean;
  time: number;
  date: number;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
  zip64: boolean;
}

/** MS-DOS date and time in local time, as ZIP tools show them; 1980 at the earliest. */
const dosDateTime = (ms: number): { date: number; time: number } => {
  const d = new Date(Number.isFinite(ms) ? ms : 0);
  if (d.getFullYear() < 1980) return { date: (1 << 5) | 1, time: 0 };
  return {
    date: ((Math.min(d.getFullYear(), 2107) - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2),
  };
};

const writeU64 = (b: Buffer, value: number, at: number): void => {
  b.writeUInt32LE(value % 2 ** 32, at);
  b.writeUInt32LE(Math.floor(value / 2 ** 32), at + 4);
};

const flagsOf = (e: Written): number => FLAG_UTF8 | (e.descriptor ? FLAG_DATA_DESCRIPTOR : 0);

const localHeader = (e: Written): Buffer => {
  const extra = e.zip64 ? 20 : 0;
  const b = Buffer.alloc(30 + e.name.length + extra);
  b.writeUInt32LE(0x04034b50, 0);
  b.writeUInt16LE(e.zip64 ? VERSION_ZIP64 : VERSION_DEFAULT, 4);
  b.writeUInt16LE(flagsOf(e), 6);
  b.writeUInt16LE(e.method, 8);
  b.writeUInt16LE(e.time, 10);
  b.writeUInt16LE(e.date, 12);
  // with a descriptor, CRC and sizes are 0 here; ZIP64 moves the sizes into the extra field
  b.writeUInt32LE(e.descriptor ? 0 : e.crc, 14);
  b.writeUInt32LE(e.zip64 ? MAX32 : e.descriptor ? 0 : e.compressed, 18);
  b.writeUInt32LE(e.zip64 ? MAX32 : e.descriptor ? 0 : e.size, 22);
  b.writeUInt16LE(e.name.length, 26);
  b.writeUInt16LE(extra, 28);
  e.name.copy(b, 30);
  if (e.zip64) {
    // ZIP64 extra field: size and compressed size, zero when a descriptor follows
    const at = 30 + e.name.length;
    b.writeUInt16LE(0x0001, at);
    b.writeUInt16LE(16, at + 2);
    if (!e.descriptor) {
      writeU64(b, e.size, at + 4);
      writeU64(b, e.compressed, at + 12);
    }
  }
  return b;
};

const dataDescriptor = (e: Written): Buffer => {
  const b = Buffer.alloc(e.zip64 ? 24 : 16);
  b.writeUInt32LE(0x08074b50, 0);
  b.writeUInt32LE(e.crc, 4);
  if (e.zip64) {
    writeU64(b, e.compressed, 8);
    writeU64(b, e.size, 16);
  } else {
    b.writeUInt32LE(e.compressed, 8);
    b.writeUInt32LE(e.size, 12);
  }
  return b;
};

const centralRecord = (e: Written): Buffer => {
  const bigOffset = e.offset >= MAX32;
  const extra = (e.zip64 ? 16 : 0) + (bigOffset ? 8 : 0);
  const b = Buffer.alloc(46 + e.name.length + (extra ? 4 + extra : 0));
  b.writeUInt32LE(0x02014b50, 0);
  b.writeUInt16LE(VERSION_MADE_BY, 4);
  b.writeUInt16LE(extra ? VERSION_ZIP64 : VERSION_DEFAULT, 6);
  b.writeUInt16LE(flagsOf(e), 8);
  b.writeUInt16LE(e.method, 10);
  b.writeUInt16LE(e.time, 12);
  b.writeUInt16LE(e.date, 14);
  b.writeUInt32LE(e.crc, 16);
  b.writeUInt32LE(e.zip64 ? MAX32 : e.compressed, 20);
  b.writeUInt32LE(e.zip64 ? MAX32 : e.size, 24);
  b.writeUInt16LE(e.name.length, 28);
  b.writeUInt16LE(extra ? 4 + extra : 0, 30);
  // comment length, disk number and internal attributes stay 0
  b.writeUInt32LE(EXTERNAL_ATTRS, 38);
  b.writeUInt32LE(bigOffset ? MAX32 : e.offset, 42);
  e.name.copy(b, 46);
  if (extra) {
    // the ZIP64 fields in their fixed order: size, compressed size, offset
    let at = 46 + e.name.length;
    b.writeUInt16LE(0x0001, at);
    b.writeUInt16LE(extra, at + 2);
    at += 4;
    if (e.zip64) {
      writeU64(b, e.size, at);
      writeU64(b, e.compressed, at + 8);
      at += 16;
    }
    if (bigOffset) writeU64(b, e.offset, at);
  }
  return b;
};

/** The end of the archive: ZIP64 end record and locator when a count or offset outgrows the classic record. */
const endRecords = (count: number, dirOffset: number, dirSize: number): Buffer => {
  const zip64 = count >= MAX16 || dirOffset >= MAX32 || dirSize >= MAX32;
  const parts: Buffer[] = [];
  if (zip64) {
    const end64 = Buffer.alloc(56);
    end64.writeUInt32LE(0x06064b50, 0);
    writeU64(end64, 44, 4);
    end64.writeUInt16LE(VERSION_MADE_BY, 12);
    end64.writeUInt16LE(VERSION_ZIP64, 14);
    writeU64(end64, count, 24);
    writeU64(end64, count, 32);
    writeU64(end64, dirSize, 40);
    writeU64(end64, dirOffset, 48);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(0x07064b50, 0);
    writeU64(locator, dirOffset + dirSize, 8);
    locator.writeUInt32LE(1, 16);
    parts.push(end64, locator);
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(count, MAX16), 8);
  end.writeUInt16LE(Math.min(count, MAX16), 10);
  end.writeUInt32LE(Math.min(dirSize, MAX32), 12);
  end.writeUInt32LE(Math.min(dirOffset, MAX32), 16);
  parts.push(end);
  return Buffer.concat(parts);
};

/** One pass over the bytes of a file, chunk by chunk; a chunk may be overwritten by the next call to `next`. */
interface Pass {
  next(): Promise<Buffer | undefined>;
}

/** A file to read once or twice; `close` ends any pass and frees what the file holds. */
interface EntryInput {
  pass(): Pass;
  close(): Promise<void>;
}

const endedEarly = (at: number, length: number): Error => new Error(`The binary ended at byte ${at} of ${length}.`);

/** Positioned reads into `buffer`: every chunk but the last of a pass is the whole buffer. */
const readerInput = (reader: BinaryReader, length: number, buffer: Buffer): EntryInput => ({
  pass() {
    let position = 0;
    return {
      async next() {
        const want = Math.min(buffer.length, length - position);
        if (want <= 0) return undefined;
        let filled = 0;
        while (filled < want) {
          const n = await reader.read(buffer.subarray(filled, want), position + filled);
          if (n === 0) throw endedEarly(position + filled, length);
          filled += n;
        }
        position += filled;
        return buffer.subarray(0, filled);
      },
    };
  },
  close: () => reader.close(),
});

/** A new stream from the store for each pass. */
const streamInput = (open: () => Readable, length: number): EntryInput => {
  let stream: Readable | undefined;
  return {
    pass() {
      stream?.destroy();
      const current = open();
      stream = current;
      const it = current[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
      let position = 0;
      return {
        async next() {
          const r = await it.next();
          if (r.done) {
            if (position < length) throw endedEarly(position, length);
            return undefined;
          }
          position += r.value.length;
          return r.value;
        },
      };
    },
    close: async () => {
      stream?.destroy();
    },
  };
};

/** Deflates into `out`, counting the compressed bytes; an input chunk may be reused once `write` resolved. */
const deflater = (out: Writable) => {
  const deflate = createDeflateRaw({ level: DEFLATE_LEVEL });
  const pending: Buffer[] = [];
  let compressed = 0;
  let failure: Error | undefined;
  let onFailure: ((e: Error) => void) | undefined;
  deflate.on('data', (c: Buffer) => pending.push(c));
  // zlib destroys itself on a failure without calling back the write it failed in
  deflate.on('error', (e) => {
    failure ??= e;
    onFailure?.(e);
  });
  const drain = async (): Promise<void> => {
    while (pending.length > 0) {
      const c = pending.shift()!;
      compressed += c.length;
      await writeOut(out, c);
    }
  };
  return {
    async write(chunk: Buffer): Promise<void> {
      // the callback comes once zlib consumed the whole chunk
      await new Promise<void>((resolve, reject) => {
        if (failure) return reject(failure);
        onFailure = reject;
        deflate.write(chunk, (e) => (e ? reject(e) : resolve()));
      });
      onFailure = undefined;
      await drain();
    },
    async end(): Promise<number> {
      deflate.end();
      await finished(deflate);
      await drain();
      return compressed;
    },
    destroy: () => deflate.destroy(),
  };
};

/**
 * Writes the entries as a ZIP to `out` and ends it; rejects when the archive
 * could not be completed. `out` must be done with a chunk when it calls back
 * its write (sockets, HTTP responses and file streams are; a Transform is
 * not), since the read buffer is filled again then.
 */
export const writeZip = async (entries: ZipEntry[], stores: StoreRegistry, out: Writable): Promise<void> => {
  const written: Written[] = [];
  let offset = 0;
  const put = async (b: Buffer): Promise<void> => {
    await writeOut(out, b);
    offset += b.length;
  };
  let buffer: Buffer | undefined;
  // a client that goes away also ends a read that is waiting for its store
  let input: EntryInput | undefined;
  const gone = () => void input?.close().catch(() => undefined);
  out.once('close', gone);

  try {
    for (const { name, file } of entries) {
      const store = stores.get(file.store);
      if (!store) throw new AppError('internal', `The store '${file.store}' of a file is not enabled.`);
      if (out.destroyed) throw new Error('The client went away.');
      input = store.openReader
        ? readerInput(await store.openReader(file.ref), file.length, (buffer ??= Buffer.allocUnsafeSlow(READ_BYTES)))
        : streamInput(() => store.read(file.ref, 0, file.length), file.length);
      let deflate: ReturnType<typeof deflater> | undefined;
      try {
        let pass = input.pass();
        // the first bytes decide the method (nothing to deflate in an empty file), and are read before anything is written
        let held: Buffer[] = [];
        let heldBytes = 0;
        while (heldBytes < SAMPLE_BYTES) {
          const c = await pass.next();
          if (!c) break;
          held.push(c);
          heldBytes += c.length;
        }
        const sample = held.length === 1 ? held[0]! : Buffer.concat(held);
        const stored = sample.length === 0 || shouldStore(file.mimetype, sample.subarray(0, SAMPLE_BYTES));
        const entry: Written = {
          name: Buffer.from(name, 'utf8'),
          method: stored ? METHOD_STORE : METHOD_DEFLATE,
          descriptor: !stored,
          ...dosDateTime(file.created),
          crc: 0,
          compressed: 0,
          size: 0,
          offset,
          zip64: file.length >= ZIP64_ENTRY,
        };
        if (stored) {
          // the CRC first: the one kept at upload, else from what is held, else from a pass of its own
          if (file.crc32 !== undefined) entry.crc = file.crc32;
          else for (const c of held) entry.crc = crc32(c, entry.crc);
          if (file.crc32 === undefined && heldBytes < file.length) {
            for (let c = await pass.next(); c; c = await pass.next()) entry.crc = crc32(c, entry.crc);
            pass = input.pass();
            held = [];
          }
          entry.size = entry.compressed = file.length;
          await put(localHeader(entry));
          for (const c of held) await put(c);
          for (let c = await pass.next(); c; c = await pass.next()) await put(c);
        } else {
          await put(localHeader(entry));
          deflate = deflater(out);
          const add = async (c: Buffer): Promise<void> => {
            entry.crc = crc32(c, entry.crc);
            entry.size += c.length;
            await deflate!.write(c);
          };
          for (const c of held) await add(c);
          for (let c = await pass.next(); c; c = await pass.next()) await add(c);
          entry.compressed = await deflate.end();
          offset += entry.compressed;
          await put(dataDescriptor(entry));
        }
        written.push(entry);
      } catch (e) {
        deflate?.destroy();
        throw e;
      } finally {
        const done = input;
        input = undefined;
        await done.close();
      }
    }

    const dirOffset = offset;
    // the central directory in writes of about 64 KiB
    let batch: Buffer[] = [];
    let batchBytes = 0;
    for (const e of written) {
      const record = centralRecord(e);
      batch.push(record);
      batchBytes += record.length;
      if (batchBytes >= 64 * 1024) {
        await put(Buffer.concat(batch));
        batch = [];
        batchBytes = 0;
      }
    }
    if (batch.length > 0) await put(Buffer.concat(batch));
    await put(endRecords(written.length, dirOffset, offset - dirOffset));
    await endOut(out);
  } finally {
    out.off('close', gone);
  }
};
