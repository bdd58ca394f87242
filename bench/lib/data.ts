import { randomFillSync } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Writes `bytes` random bytes to `path` in 16 MiB blocks. */
export const randomFile = (path: string, bytes: number): void => {
  const fd = openSync(path, 'w');
  const block = Buffer.alloc(Math.min(bytes, 16 * 1024 * 1024));
  try {
    for (let left = bytes; left > 0; left -= block.length) {
      randomFillSync(block);
      writeSync(fd, block, 0, Math.min(left, block.length));
    }
  } finally {
    closeSync(fd);
  }
};

/** Reads a response body to the end without keeping it; returns the byte count. */
export const drain = async (res: Response): Promise<number> => {
  let n = 0;
  for await (const chunk of res.body!) n += (chunk as Uint8Array).byteLength;
  return n;
};

/** A temporary directory for one run, with random files made once on first use. */
export interface Work {
  dir: string;
  /** `<dir>/<name>`, `bytes` random bytes */
  file(name: string, bytes: number): string;
  remove(): void;
}

export const createWork = (): Work => {
  const dir = mkdtempSync(join(tmpdir(), 'pier-bench-'));
  const made = new Set<string>();
  return {
    dir,
    file(name, bytes) {
      const path = join(dir, name);
      if (!made.has(path)) {
        randomFile(path, bytes);
        made.add(path);
      }
      return path;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
};

/** Bytes free for an unprivileged user on the file system of `dir`. */
export const freeBytes = (dir: string): number => {
  const s = statfsSync(dir);
  return s.bavail * s.bsize;
};
