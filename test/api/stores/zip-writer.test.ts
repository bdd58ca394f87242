import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { writeZip, type ZipEntry } from '../../../server/core/downloads/zip-writer.js';
import type { FileRecord } from '../../../server/core/shares/share.repository.js';
import type { BinaryStore, StoreRegistry } from '../../../server/core/stores/binary-store.js';
import { createFileSystemStore } from '../../../server/core/stores/filesystem.store.js';

interface Entry {
  name: string;
  method: number;
  flags: number;
  size: number;
  compressed: number;
  crc: number;
  offset: number;
  data?: Buffer;
}

/** Every entry of a ZIP through yauzl (which checks sizes and, for the entries it reads, the CRC). */
const readZip = (zf: yauzl.ZipFile, readData: (e: yauzl.Entry) => boolean): Promise<Entry[]> =>
  new Promise((resolve, reject) => {
    const out: Entry[] = [];
    zf.on('error', reject);
    zf.on('end', () => resolve(out));
    zf.on('entry', (e: yauzl.Entry) => {
      const entry: Entry = {
        name: e.fileName,
        method: e.compressionMethod,
        flags: e.generalPurposeBitFlag,
        size: e.uncompressedSize,
        compressed: e.compressedSize,
        crc: e.crc32,
        offset: e.relativeOffsetOfLocalHeader,
      };
      out.push(entry);
      if (!readData(e)) return zf.readEntry();
      zf.openReadStream(e, (err, rs) => {
        if (err) return reject(err);
        const chunks: Buffer[] = [];
        rs.on('data', (c: Buffer) => chunks.push(c));
        rs.on('error', reject);
        rs.on('end', () => {
          entry.data = Buffer.concat(chunks);
          zf.readEntry();
        });
      });
    });
    zf.readEntry();
  });

const options = { lazyEntries: true, strictFileNames: true, validateEntrySizes: true } as const;

describe('writeZip: a streamed ZIP from the stores', () => {
  let dir: string;
  let fsStore: BinaryStore;
  let registry: StoreRegistry;
  let n = 0;

  /** A file in the file-system store; the registry also offers it without positioned reads as `streamed`. */
  const add = async (filename: string, mimetype: string, bytes: Buffer, store = 'files'): Promise<FileRecord> => {
    const fileId = `f${++n}`;
    const location = await fsStore.create(fileId, { shareId: 's', shareName: 'zip', fileName: filename });
    await fsStore.append({ fileId, location }, 0, Readable.from([bytes]), bytes.length);
    return { id: fileId, shareId: 's', fileId, filename, mimetype, length: bytes.length, storedSize: bytes.length, checksum: '', created: Date.UTC(2026, 10, 23, 12, 30, 10), store, ref: { fileId, location } };
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pier-zip-'));
    fsStore = await createFileSystemStore({ id: 'files', directory: join(dir, 'store'), cleanEmptyDirs: false });
    // the same files read as a stream, as from the database and S3 stores
    const streamed: BinaryStore = { ...fsStore, id: 'streamed', openReader: undefined };
    const zeros: BinaryStore = {
      ...fsStore,
      id: 'zeros',
      openReader: async () => ({
        read: async (into) => into.fill(0).length,
        close: async () => undefined,
      }),
    };
    // a store whose stream never gives a byte
    const stalled: BinaryStore = { ...fsStore, id: 'stalled', openReader: undefined, read: () => new Readable({ read() {} }) };
    registry = { defaultStore: fsStore, get: (id) => ({ files: fsStore, streamed, zeros, stalled })[id], all: () => [fsStore, streamed, zeros, stalled] };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes stored and deflated entries that yauzl and Info-ZIP read back byte for byte', async () => {
    const text = Buffer.from('All work and no play makes Jack a dull boy.\n'.repeat(5000));
    const photo = randomBytes(3 * 1024 * 1024 + 12_345);
    const odd = randomBytes(70 * 1024);
    const files: [string, FileRecord, Buffer][] = [];
    for (const store of ['files', 'streamed']) {
      files.push([`${store}-empty.txt`, await add('empty.txt', 'text/plain', Buffer.alloc(0), store), Buffer.alloc(0)]);
      files.push([`${store}-notes.txt`, await add('notes.txt', 'text/plain', text, store), text]);
      files.push([`${store}-photo.jpg`, await add('photo.jpg', 'image/jpeg', photo, store), photo]);
      files.push([`${store}-ünï cødé.bin`, await add('x.bin', 'application/octet-stream', odd, store), odd]);
    }
    const path = join(dir, 'mixed.zip');
    const out = createWriteStream(path);
    await writeZip(files.map(([name, file]) => ({ name, file })), registry, out);
    await finished(out);

    const zip = readFileSync(path);
    const zf = await new Promise<yauzl.ZipFile>((resolve, reject) => yauzl.fromBuffer(zip, options, (e, z) => (e ? reject(e) : resolve(z))));
    const entries = await readZip(zf, () => true);
    expect(entries.map((e) => e.name)).toEqual(files.map(([name]) => name));
    for (const [i, [, , bytes]] of files.entries()) {
      expect(entries[i]!.data!.equals(bytes)).toBe(true);
      expect(entries[i]!.crc).toBe(crc32(bytes));
    }
    // text is deflated and shrinks; the photo and random bytes are stored
    expect(entries.map((e) => e.method)).toEqual([0, 8, 0, 0, 0, 8, 0, 0]);
    expect(entries[1]!.compressed).toBeLessThan(text.length / 10);
    // UTF-8 names; a data descriptor only after deflated data, which marks its own end
    expect(entries.map((e) => e.flags)).toEqual([0x800, 0x808, 0x800, 0x800, 0x800, 0x808, 0x800, 0x800]);

    const infoZip = spawnSync('unzip', ['-t', path], { encoding: 'utf8' });
    expect(infoZip.error).toBeUndefined();
    expect(infoZip.stdout).toContain('No errors detected');
    expect(infoZip.status).toBe(0);
    // the local time of the file's creation, to the two seconds MS-DOS keeps
    const listed = spawnSync('unzip', ['-Z', '-T', path, 'files-notes.txt'], { encoding: 'utf8' });
    const created = new Date(Date.UTC(2026, 10, 23, 12, 30, 10));
    const stamp = `${created.getFullYear()}${String(created.getMonth() + 1).padStart(2, '0')}${String(created.getDate()).padStart(2, '0')}.${String(created.getHours()).padStart(2, '0')}${String(created.getMinutes()).padStart(2, '0')}10`;
    expect(listed.stdout).toContain(stamp);
    expect(listed.stdout).toContain('-rw-r--r--');
  });

  it('reads a stored file once when its CRC-32 was kept at upload, twice without it', async () => {
    const photo = randomBytes(3 * 1024 * 1024 + 7);
    let opened = 0;
    const counting: BinaryStore = {
      ...fsStore,
      id: 'counting',
      openReader: undefined,
      read: (ref, start, end) => {
        opened++;
        return fsStore.read(ref, start, end);
      },
    };
    const counted: StoreRegistry = { ...registry, get: (id) => (id === 'counting' ? counting : registry.get(id)) };
    const zipOf = async (file: FileRecord): Promise<Entry[]> => {
      const path = join(dir, `counted-${n}.zip`);
      const out = createWriteStream(path);
      await writeZip([{ name: 'photo.jpg', file }], counted, out);
      await finished(out);
      const zf = await new Promise<yauzl.ZipFile>((resolve, reject) => yauzl.fromBuffer(readFileSync(path), options, (e, z) => (e ? reject(e) : resolve(z))));
      return readZip(zf, () => true);
    };
    const file = await add('photo.jpg', 'image/jpeg', photo, 'counting');
    const [kept] = await zipOf({ ...file, crc32: crc32(photo) });
    expect(opened).toBe(1);
    expect(kept!.crc).toBe(crc32(photo));
    expect(kept!.data!.equals(photo)).toBe(true);
    opened = 0;
    const [computed] = await zipOf(file);
    expect(opened).toBe(2);
    expect(computed!.crc).toBe(crc32(photo));
  });

  it('gives a reader that streams the archive exactly its entries, whatever bytes a stored file holds', async () => {
    // a stored file that holds what a streaming reader would take for the end of its data and a next entry
    const name = Buffer.from('../../evil.txt');
    const planted = Buffer.alloc(30 + name.length + 4);
    planted.writeUInt32LE(0x04034b50, 0);
    planted.writeUInt16LE(20, 4);
    planted.writeUInt32LE(crc32('evil'), 14);
    planted.writeUInt32LE(4, 18);
    planted.writeUInt32LE(4, 22);
    planted.writeUInt16LE(name.length, 26);
    name.copy(planted, 30);
    planted.write('evil', 30 + name.length);
    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    const smuggler = Buffer.concat([descriptor, planted, randomBytes(2 * 1024 * 1024)]);
    const files: ZipEntry[] = [];
    for (const store of ['files', 'streamed']) {
      files.push({ name: `${store}-photo.jpg`, file: await add('photo.jpg', 'image/jpeg', smuggler, store) });
      files.push({ name: `${store}-small.jpg`, file: await add('small.jpg', 'image/jpeg', smuggler.subarray(0, 5000), store) });
      files.push({ name: `${store}-after.txt`, file: await add('after.txt', 'text/plain', Buffer.from('after\n'), store) });
    }
    const path = join(dir, 'smuggler.zip');
    const out = createWriteStream(path);
    await writeZip(files, registry, out);
    await finished(out);

    // bsdtar reading from a pipe sees only the local headers, as a download being unpacked would
    const listed = spawnSync('bsdtar', ['-tf', '-'], { input: readFileSync(path), encoding: 'utf8' });
    expect(listed.error).toBeUndefined();
    expect(listed.stderr).toBe('');
    expect(listed.stdout.split('\n').filter(Boolean)).toEqual(files.map((f) => f.name));
    const unpacked = spawnSync('bsdtar', ['-xOf', '-', 'files-photo.jpg'], { input: readFileSync(path), maxBuffer: 8 * 1024 * 1024 });
    expect(unpacked.status).toBe(0);
    expect(unpacked.stdout.equals(smuggler)).toBe(true);
  });

  it('writes ZIP64 sizes and offsets for a file of more than 4 GiB', async () => {
    const bigSize = 2 ** 32 + 10;
    // 4 GiB of zeros, read as from a file: a sparse file would cost seconds of the kernel's zeroing
    const big = { ...(await add('big.mp4', 'video/mp4', Buffer.alloc(0))), store: 'zeros', length: bigSize };
    const after = Buffer.from('after the big one\n'.repeat(100));
    const small = await add('after.txt', 'text/plain', after);

    // keep the archive's structure and count the runs of zeros instead of storing them
    const zeros = Buffer.alloc(1024 * 1024);
    const parts: { at: number; zeros?: number; bytes?: Buffer }[] = [];
    let length = 0;
    const sink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        if (chunk.length <= zeros.length && chunk.equals(zeros.subarray(0, chunk.length))) {
          const last = parts.at(-1);
          if (last?.zeros !== undefined) last.zeros += chunk.length;
          else parts.push({ at: length, zeros: chunk.length });
        } else parts.push({ at: length, bytes: Buffer.from(chunk) });
        length += chunk.length;
        cb();
      },
    });
    await writeZip([{ name: 'big.mp4', file: big }, { name: 'after.txt', file: small }] satisfies ZipEntry[], registry, sink);
    expect(parts.filter((p) => p.zeros !== undefined).map((p) => p.zeros)).toEqual([bigSize]);

    const reader = new (class extends yauzl.RandomAccessReader {
      override _readStreamForRange(start: number, end: number): Readable {
        const out: Buffer[] = [];
        for (const p of parts) {
          const size = p.zeros ?? p.bytes!.length;
          const from = Math.max(start, p.at);
          const to = Math.min(end, p.at + size);
          if (from < to) out.push(p.bytes ? p.bytes.subarray(from - p.at, to - p.at) : Buffer.alloc(to - from));
        }
        return Readable.from(out);
      }
    })();
    const zf = await new Promise<yauzl.ZipFile>((resolve, reject) => yauzl.fromRandomAccessReader(reader, length, options, (e, z) => (e ? reject(e) : resolve(z))));
    const entries = await readZip(zf, (e) => e.fileName === 'after.txt');

    let crc = 0;
    for (let left = bigSize; left > 0; left -= zeros.length) crc = crc32(zeros.subarray(0, Math.min(left, zeros.length)), crc);
    expect(entries[0]).toMatchObject({ name: 'big.mp4', method: 0, size: bigSize, compressed: bigSize, crc, offset: 0 });
    // its local header, for readers that stream: CRC, sizes in the ZIP64 extra field, no descriptor
    const local = parts[0]!.bytes!;
    expect(local.readUInt32LE(0)).toBe(0x04034b50);
    expect(local.readUInt16LE(6)).toBe(0x800);
    expect(local.readUInt32LE(14)).toBe(crc);
    expect([local.readUInt32LE(18), local.readUInt32LE(22)]).toEqual([0xffffffff, 0xffffffff]);
    const extraAt = 30 + local.readUInt16LE(26);
    expect(local.readUInt16LE(28)).toBe(20);
    expect([local.readUInt16LE(extraAt), local.readUInt16LE(extraAt + 2)]).toEqual([1, 16]);
    expect([Number(local.readBigUInt64LE(extraAt + 4)), Number(local.readBigUInt64LE(extraAt + 12))]).toEqual([bigSize, bigSize]);
    expect(parts[1]!.zeros).toBe(bigSize);
    expect(entries[1]).toMatchObject({ name: 'after.txt', method: 8, size: after.length, crc: crc32(after) });
    expect(entries[1]!.offset).toBeGreaterThan(2 ** 32);
    expect(entries[1]!.data!.equals(after)).toBe(true);
  }, 60_000);

  it('rejects when a file ends before its recorded length', async () => {
    for (const store of ['files', 'streamed']) {
      const file = await add('short.bin', 'application/octet-stream', randomBytes(5000), store);
      file.length = 9000;
      const out = createWriteStream(join(dir, `short-${store}.zip`));
      await expect(writeZip([{ name: 'short.bin', file }], registry, out)).rejects.toThrow('The binary ended at byte 5000 of 9000.');
      out.destroy();
    }
  });

  it('stops when the receiver goes away', async () => {
    const file = await add('long.bin', 'application/octet-stream', randomBytes(8 * 1024 * 1024));
    let taken = 0;
    const sink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        taken += chunk.length;
        if (taken > 2 * 1024 * 1024) this.destroy();
        else cb();
      },
    });
    await expect(writeZip([{ name: 'long.bin', file }], registry, sink)).rejects.toThrow();
    expect(taken).toBeLessThan(4 * 1024 * 1024);
  });

  it('ends a read that waits for its store when the receiver goes away', async () => {
    const file = { ...(await add('slow.bin', 'application/octet-stream', Buffer.alloc(10))), store: 'stalled' };
    const sink = new Writable({
      write(_chunk, _enc, cb) {
        cb();
      },
    });
    const zip = writeZip([{ name: 'slow.bin', file }], registry, sink);
    setTimeout(() => sink.destroy(), 50);
    await expect(zip).rejects.toThrow();
  });
});
