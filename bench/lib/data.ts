import { randomFillSync } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';

/** Writes `bytes` random bytes to `path` in 16 MiB blocks. */
export const randomFile = (path: string, bytes: number): void => {
  const fd = openSync(path, 'w');
  const block = Buffer.alloc(16 * 1024 * 1024);
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
