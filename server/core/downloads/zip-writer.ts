/**
 * Streams files from their stores into a ZIP (archiver, ZIP64 when needed)
 * written to `out` with back-pressure. One file is read at a time, so memory
 * stays constant whatever the number and size of the files. When `out` fails
 * or closes early (the client went away), the store read stops and the
 * archive is abandoned.
 */
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../../common/errors.js';
import type { FileRecord } from '../shares/share.repository.js';
import type { StoreRegistry } from '../stores/binary-store.js';
import { SAMPLE_BYTES, shouldStore } from './zip-compress.js';

export interface ZipEntry {
  name: string;
  file: FileRecord;
}

interface Peeked {
  head: Buffer;
  /** the whole content when the source ended within the sample, else the head followed by the rest */
  body: Buffer | Readable;
}

/** Reads up to `n` bytes from the start of `src` without losing them. */
const peek = async (src: Readable, n: number): Promise<Peeked> => {
  const it = src[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const chunks: Buffer[] = [];
  let size = 0;
  while (size < n) {
    const r = await it.next();
    if (r.done) {
      const all = Buffer.concat(chunks);
      return { head: all, body: all };
    }
    chunks.push(r.value);
    size += r.value.length;
  }
  const head = Buffer.concat(chunks);
  async function* rest(): AsyncGenerator<Buffer> {
    try {
      yield head;
      for (;;) {
        const r = await it.next();
        if (r.done) return;
        yield r.value;
      }
    } finally {
      await it.return?.();
    }
  }
  return { head, body: Readable.from(rest(), { objectMode: false }) };
};

/** Writes the entries as a ZIP to `out`; resolves once the archive is complete, rejects when it could not be. */
export const writeZip = async (entries: ZipEntry[], stores: StoreRegistry, out: Writable): Promise<void> => {
  // archiver is loaded with the first ZIP, not at start
  const { ZipArchive } = await import('archiver');
  const archive = new ZipArchive({ zlib: { level: 6 } });
  let current: Readable | undefined;
  let failure: unknown;
  let onFailure: (e: unknown) => void = () => undefined;
  const failed = new Promise<never>((_resolve, reject) => {
    onFailure = (e) => {
      failure ??= e;
      current?.destroy();
      archive.abort();
      reject(failure instanceof Error ? failure : new Error(String(failure)));
    };
  });
  failed.catch(() => undefined);
  archive.on('error', onFailure);
  const piping = pipeline(archive, out);
  piping.catch(onFailure);

  try {
    for (const { name, file } of entries) {
      const store = stores.get(file.store);
      if (!store) throw new AppError('internal', `The store '${file.store}' of a file is not enabled.`);
      current = store.read(file.ref, 0, file.length);
      const { head, body } = await Promise.race([peek(current, SAMPLE_BYTES), failed]);
      if (body instanceof Readable) current = body;
      const added = new Promise<void>((resolve) => archive.once('entry', () => resolve()));
      archive.append(body, { name, store: shouldStore(file.mimetype, head.subarray(0, SAMPLE_BYTES)), date: new Date(file.created) });
      await Promise.race([added, failed]);
    }
    await Promise.race([archive.finalize(), failed]);
    await Promise.race([piping, failed]);
  } catch (e) {
    onFailure(e);
    throw e;
  }
};
