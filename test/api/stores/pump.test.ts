import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, get, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BinaryReader } from '../../../server/core/stores/binary-store.js';
import { createFileSystemStore } from '../../../server/core/stores/filesystem.store.js';
import { pump, PUMP_BYTES } from '../../../server/http/pump.js';

const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

describe('pump: positioned reads from the file-system store into a response', () => {
  let dir: string;
  let server: Server;
  let url: string;
  // more than loopback's socket buffers take, so a client that stops reading holds the answer up
  const bytes = randomBytes(24 * PUMP_BYTES + 12_345);
  /** what the next request does: the range to send, and what happened */
  let job: { start: number; end: number; done?: Promise<unknown>; closed?: boolean };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pier-pump-'));
    const store = await createFileSystemStore({ id: 'files', directory: dir, cleanEmptyDirs: false });
    const location = await store.create('f1', { shareId: 's', shareName: 'folder', fileName: 'file.bin' });
    await store.append({ fileId: 'f1', location }, 0, Readable.from([bytes]), bytes.length);
    server = createServer((_req, res: ServerResponse) => {
      void (async () => {
        const reader = await store.openReader!({ fileId: 'f1', location });
        const watched: BinaryReader = {
          read: (into, position) => reader.read(into, position),
          close: async () => {
            job.closed = true;
            await reader.close();
          },
        };
        res.writeHead(200, { 'Content-Length': String(job.end - job.start) });
        // as the download route does: a failure after the head drops the connection
        job.done = pump(res, watched, job.start, job.end).then(
          () => 'ok',
          (e: Error) => {
            res.destroy();
            return e.message;
          },
        );
      })();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });

  afterAll(async () => {
    await new Promise((r) => server.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  const fetchAll = (): Promise<Buffer> =>
    new Promise((resolve, reject) => {
      get(url, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => resolve(Buffer.concat(parts)));
        res.on('error', reject);
      }).on('error', reject);
    });

  it('sends exactly the bytes of the range, across several reads, and closes the reader', async () => {
    for (const [start, end] of [
      [0, bytes.length],
      [PUMP_BYTES - 1, 2 * PUMP_BYTES + 2],
      [bytes.length - 10, bytes.length],
    ] as const) {
      job = { start, end };
      const got = await fetchAll();
      expect(sha(got), `${start}-${end}`).toBe(sha(bytes.subarray(start, end)));
      expect(await job.done).toBe('ok');
      expect(job.closed).toBe(true);
    }
  });

  it('stops with an error and closes the reader when the binary ends before the range does', async () => {
    job = { start: bytes.length - 100, end: bytes.length + 100 };
    await fetchAll().catch(() => Buffer.alloc(0));
    expect(await job.done).toMatch(/ended at byte/);
    expect(job.closed).toBe(true);
  });

  it('stops reading and closes the reader when the client goes away', async () => {
    job = { start: 0, end: bytes.length };
    await new Promise<void>((resolve) => {
      const req = get(url, (res) => {
        res.once('data', () => {
          res.pause();
          // the server is now waiting for the socket to take more
          setTimeout(() => {
            req.destroy();
            resolve();
          }, 200);
        });
      });
      req.on('error', () => undefined);
    });
    await expect.poll(() => job.done, { timeout: 5000 }).toBeDefined();
    expect(await job.done).not.toBe('ok');
    expect(job.closed).toBe(true);
  });
});
