/**
 * The `file-system` store: every uploaded file is one plain file a person can
 * find and copy, `<directory>/<share folder>/<file name>`:
 *
 * - the share folder is the share's name (or its id when it has none), the
 *   file name the uploader's name, both made safe by `safeSegment`;
 * - names are claimed atomically (`O_EXCL`) and de-duplicated within the
 *   folder: `a.txt`, `a (1).txt`, ... (shares with the same name share a folder);
 * - the relative path is the location kept in `file_meta.location`.
 *
 * Every path is resolved inside `directory`; a location leading outside, a
 * share folder that is a symbolic link and a file that is a symbolic link are
 * refused (`O_NOFOLLOW`), so nothing is ever read or written through a link.
 *
 * `@tus/file-store` is not used: it names files by upload id and keeps `.json`
 * sidecars next to them, which defeats person-findable names, and it would
 * keep offsets of its own besides `file_meta`. Appending at an offset is a
 * positioned write here, a few lines.
 */
import { once } from 'node:events';
import { constants, createReadStream, lstatSync } from 'node:fs';
import { chmod, lstat, mkdir, open, opendir, realpath, rmdir, unlink, type FileHandle } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { droppedExternalBytes } from '../../process/young-collection.js';
import type { BinaryRef, BinaryStore, NameHint } from './binary-store.js';
import { numbered, safeSegment } from './safe-name.js';
import { limitBytes, offsetConflict } from './stream-util.js';

/**
 * Writes `data` into `fh` from `start` through the stock write stream; what
 * arrived before the source fails is still written, so the client can resume
 * from there. Resolves with the bytes written; rethrows the first failure.
 */
const writeStream = async (fh: FileHandle, start: number, data: AsyncIterable<Buffer>): Promise<number> => {
  // the stream closes `fh` when it ends (closing it again is a no-op)
  const out = fh.createWriteStream({ start, highWaterMark: WRITE_BUFFER_BYTES });
  // its failure is read by `finished` below, also when it comes while the source is awaited
  out.on('error', () => undefined);
  let failure: unknown;
  try {
    for await (const chunk of data) {
      if (out.destroyed) break;
      // counted for young collections once written: a collection then finds the chunk dead
      const written = out.write(chunk, (e) => {
        if (!e) droppedExternalBytes(chunk.length);
      });
      if (!written) await once(out, 'drain');
    }
  } catch (e) {
    failure = e;
  }
  if (!out.destroyed) out.end();
  await finished(out).catch((e: unknown) => {
    failure ??= e;
  });
  if (failure !== undefined) throw failure;
  return out.bytesWritten;
};

export interface FileSystemStoreOptions {
  id: string;
  directory: string;
  cleanEmptyDirs: boolean;
}

const { O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_RDONLY, O_WRONLY } = constants;
/** bytes of an upload that may wait while a write runs */
const WRITE_BUFFER_BYTES = 256 * 1024;
const MAX_TRIES = 10_000;
/** Received files are private to the user running Pier, whatever the umask. */
const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

const errno = (e: unknown): string | undefined => (e as NodeJS.ErrnoException | undefined)?.code;

/** Refusals are plain errors: they are store failures, not client input. */
const refuse = (location: string, why: string): Error =>
  new Error(`File-system store refuses location ${JSON.stringify(location)}: ${why}`);

/** Creates the directory when needed and returns the store. */
export const createFileSystemStore = async (opts: FileSystemStoreOptions): Promise<BinaryStore> => {
  // a directory made here is private; one that exists keeps the mode its owner chose
  const made = await mkdir(opts.directory, { recursive: true, mode: DIR_MODE });
  if (made !== undefined) await chmod(opts.directory, DIR_MODE);
  // The base itself may be a link (the operator's choice); everything below may not.
  const base = await realpath(opts.directory);

  /** The absolute path of a location and the folders between it and the base. */
  const resolveLocation = (location: string): { path: string; dirs: string[] } => {
    if (location === '' || location.includes('\0') || isAbsolute(location) || /^[a-z]:/i.test(location))
      throw refuse(location, 'not a relative path');
    const segments = location.split(/[/\\]/);
    if (segments.some((s) => s === '' || s === '.' || s === '..')) throw refuse(location, 'empty, . or .. segment');
    const path = resolve(base, ...segments);
    const rel = relative(base, path);
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) throw refuse(location, 'outside the store directory');
    const dirs: string[] = [];
    for (let i = 1; i < segments.length; i++) dirs.push(join(base, ...segments.slice(0, i)));
    return { path, dirs };
  };

  const checkDirs = async (location: string, dirs: string[]): Promise<void> => {
    for (const dir of dirs) {
      const st = await lstat(dir).catch((e: unknown) => {
        if (errno(e) === 'ENOENT') return undefined;
        throw e;
      });
      if (st && !st.isDirectory()) throw refuse(location, `${dir} is not a plain directory`);
    }
  };

  const checkDirsSync = (location: string, dirs: string[]): void => {
    for (const dir of dirs) {
      const st = lstatSync(dir, { throwIfNoEntry: false });
      if (st && !st.isDirectory()) throw refuse(location, `${dir} is not a plain directory`);
    }
  };

  const locate = async (ref: BinaryRef): Promise<string> => {
    const { path, dirs } = resolveLocation(ref.location);
    await checkDirs(ref.location, dirs);
    return path;
  };

  const ensureFolder = async (folder: string): Promise<string> => {
    const dir = join(base, folder);
    // usually the folder exists: one lstat, no failing mkdir
    const st = await lstat(dir).catch((e: unknown) => {
      if (errno(e) === 'ENOENT') return undefined;
      throw e;
    });
    if (st?.isDirectory()) return dir;
    const made = await mkdir(dir, { mode: DIR_MODE }).then(
      () => true,
      (e: unknown) => {
        if (errno(e) !== 'EEXIST') throw e;
        return false;
      },
    );
    if (made) await chmod(dir, DIR_MODE);
    await checkDirs(folder, [dir]);
    return dir;
  };

  const create = async (_fileId: string, hint: NameHint): Promise<string> => {
    const folder = safeSegment(hint.shareName?.trim() || hint.shareId, 'share');
    const name = safeSegment(hint.fileName, 'file');
    let dir = await ensureFolder(folder);
    for (let n = 0; n < MAX_TRIES; n++) {
      const candidate = numbered(name, n);
      try {
        const fh = await open(join(dir, candidate), O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW, FILE_MODE);
        try {
          await fh.chmod(FILE_MODE);
        } finally {
          await fh.close();
        }
        return `${folder}/${candidate}`;
      } catch (e) {
        if (errno(e) === 'EEXIST') continue;
        // a concurrent delete removed the empty folder: make it again
        if (errno(e) === 'ENOENT') {
          dir = await ensureFolder(folder);
          n -= 1;
          continue;
        }
        throw e;
      }
    }
    throw new Error(`No free name for ${JSON.stringify(name)} in ${JSON.stringify(folder)}.`);
  };

  const size = async (ref: BinaryRef): Promise<number> => {
    const path = await locate(ref);
    const st = await lstat(path).catch((e: unknown) => {
      if (errno(e) === 'ENOENT') return undefined;
      throw e;
    });
    if (!st) return 0;
    if (!st.isFile()) throw refuse(ref.location, 'not a regular file');
    return st.size;
  };

  /** Opens the file of `ref`, never through a link; ENOENT is the caller's to map. */
  const openLocated = async (ref: BinaryRef, flags: number) => {
    const path = await locate(ref);
    return open(path, flags | O_NOFOLLOW, FILE_MODE).catch((e: unknown) => {
      throw errno(e) === 'ELOOP' ? refuse(ref.location, 'a symbolic link') : e;
    });
  };

  const openForAppend = (ref: BinaryRef, offset: number) =>
    openLocated(ref, O_WRONLY | (offset === 0 ? O_CREAT : 0)).catch((e: unknown) => {
      throw errno(e) === 'ENOENT' ? offsetConflict(offset, 0) : e;
    });

  const removeEmptyFolders = async (dirs: string[]): Promise<void> => {
    for (const dir of dirs.reverse()) {
      try {
        await rmdir(dir);
      } catch {
        return; // not empty, gone, or not ours to remove
      }
    }
  };

  return {
    id: opts.id,
    type: 'file-system',
    create,
    size,

    async append(ref, offset, data, maxBytes) {
      const fh = await openForAppend(ref, offset);
      try {
        const st = await fh.stat();
        if (!st.isFile()) throw refuse(ref.location, 'not a regular file');
        if (st.size !== offset) throw offsetConflict(offset, st.size);
        return await writeStream(fh, offset, limitBytes(data, maxBytes));
      } finally {
        await fh.close();
      }
    },

    read(ref, start = 0, end) {
      try {
        const { path, dirs } = resolveLocation(ref.location);
        checkDirsSync(ref.location, dirs);
        if (end !== undefined && end <= start) return Readable.from([]);
        return createReadStream(path, {
          // numeric flags are passed on to open(2); the typings only admit strings
          flags: (O_RDONLY | O_NOFOLLOW) as unknown as string,
          start,
          ...(end === undefined ? {} : { end: end - 1 }),
          highWaterMark: 1024 * 1024,
        });
      } catch (e) {
        return new Readable({ read() { this.destroy(e as Error); } });
      }
    },

    async openReader(ref) {
      // O_NONBLOCK: opening a named pipe put in place of a file must not wait for a writer
      const fh = await openLocated(ref, O_RDONLY | O_NONBLOCK);
      if (!(await fh.stat()).isFile()) {
        await fh.close();
        throw refuse(ref.location, 'not a regular file');
      }
      return {
        read: async (into, position) => (await fh.read(into, 0, into.length, position)).bytesRead,
        close: () => fh.close(),
      };
    },

    async delete(ref) {
      const { path, dirs } = resolveLocation(ref.location);
      await checkDirs(ref.location, dirs);
      await unlink(path).catch((e: unknown) => {
        if (errno(e) !== 'ENOENT') throw e;
      });
      if (opts.cleanEmptyDirs) await removeEmptyFolders(dirs);
    },

    async *list() {
      for await (const folder of await opendir(base)) {
        if (!folder.isDirectory()) continue;
        for await (const file of await opendir(join(base, folder.name))) {
          if (file.isFile()) yield { fileId: '', location: `${folder.name}/${file.name}` };
        }
      }
    },
  };
};

