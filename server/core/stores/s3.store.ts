/**
 * The `s3` store (AWS SDK v3, path-style addressing, any S3-compatible
 * endpoint). S3 objects cannot be appended to, so a file is a series of
 * objects `<fileId>/<number, 8 digits>` of at most `objectSize` bytes (8 MiB:
 * a request per 8 MiB keeps a download's CPU and request costs low; the
 * database store's `share.chunk-size` plays no part here). An append fills
 * objects of `objectSize`; what is left at its end becomes a shorter object,
 * which the next append fills up only while it is small (under an eighth of
 * `objectSize`, cheap to read back and write again), else the next append
 * starts a new object. So resuming never rewrites more than that small last
 * object, and a failed append leaves every object it completed behind. Sizes
 * and the order come from ListObjectsV2, so any node sharing the bucket sees
 * the same offset, and files written with other object sizes read the same.
 * Reads fetch the objects (or byte ranges of them) one after the other.
 *
 * The bucket is created at start-up when it does not exist.
 */
import { Readable } from 'node:stream';
import {
  CreateBucketCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { Logger } from '../../common/log.js';
import type { BinaryRef, BinaryStore } from './binary-store.js';
import { joinParts, limitBytes, offsetConflict, writeInPieces } from './stream-util.js';

export interface S3StoreOptions {
  id: string;
  endpoint: string;
  region: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  /** the largest object written (default 8 MiB); smaller only in tests */
  objectSize?: number;
  log: Logger;
}

const OBJECT_SIZE = 8 * 1024 * 1024;

interface ChunkObject {
  key: string;
  nr: number;
  size: number;
}

const chunkKey = (fileId: string, nr: number): string => `${fileId}/${String(nr).padStart(8, '0')}`;

const status = (e: unknown): number | undefined =>
  e instanceof S3ServiceException ? e.$metadata.httpStatusCode : undefined;

/** How long the start-up check may take: a silent endpoint must not hold up the start. */
const CHECK_TIMEOUT_MS = 15_000;

const ensureBucket = async (client: S3Client, bucket: string, log: Logger): Promise<void> => {
  const abortSignal = AbortSignal.timeout(CHECK_TIMEOUT_MS);
  const timedOut = (e: unknown): unknown =>
    abortSignal.aborted ? Object.assign(new Error(`no answer within ${CHECK_TIMEOUT_MS / 1000} s`, { cause: e }), { code: 'ETIMEDOUT' }) : e;
  try {
    await client.send(new HeadBucketCommand({ Bucket: bucket }), { abortSignal });
    return;
  } catch (e) {
    if (status(e) !== 404) throw timedOut(e);
  }
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }), { abortSignal });
    log.info('Created the S3 bucket', { bucket });
  } catch (e) {
    // another node created it in the meantime
    if (!(e instanceof S3ServiceException && /BucketAlready/.test(e.name))) throw timedOut(e);
  }
};

/** Connects, creates the bucket when missing and returns the store. */
export const createS3Store = async (opts: S3StoreOptions): Promise<BinaryStore> => {
  const { bucket } = opts;
  const objectSize = Math.max(1, opts.objectSize ?? OBJECT_SIZE);
  /** a last object smaller than this is filled up by the next append; a larger one is left as it is */
  const refill = Math.ceil(objectSize / 8);
  const client = new S3Client({
    endpoint: opts.endpoint,
    region: opts.region,
    forcePathStyle: true,
    // Only what S3 requires: many S3-compatible servers reject the newer default checksums.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // An endpoint that does not connect or never answers fails the request instead of holding it
    // (and a start-up copy) forever; the time limit ends with the answer's headers, not its body.
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000, throwOnRequestTimeout: true },
    ...(opts.accessKey === '' ? {} : { credentials: { accessKeyId: opts.accessKey, secretAccessKey: opts.secretKey } }),
  });
  try {
    await ensureBucket(client, bucket, opts.log);
  } catch (e) {
    client.destroy();
    const why = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    const code = status(e);
    throw new Error(`bucket "${bucket}" at ${opts.endpoint}${code ? ` (HTTP ${code})` : ''}: ${why}`, { cause: e });
  }

  const chunks = async (fileId: string): Promise<ChunkObject[]> => {
    const out: ChunkObject[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: bucket, Prefix: `${fileId}/`, ContinuationToken: token }),
      );
      for (const o of page.Contents ?? []) {
        const nr = Number(o.Key!.slice(fileId.length + 1));
        if (Number.isInteger(nr)) out.push({ key: o.Key!, nr, size: o.Size ?? 0 });
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return out.sort((a, b) => a.nr - b.nr);
  };

  const body = async (key: string): Promise<Readable> => {
    const res = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    return res.Body as Readable;
  };

  /**
   * Bytes `[from, to)` of one object. Some S3-compatible servers ignore a
   * Range header (or answer `bytes=0-0` with the whole object): whatever the
   * answer starts at, exactly the wanted bytes are passed on.
   */
  async function* objectRange(key: string, from: number, to: number): AsyncGenerator<Buffer> {
    const res = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key, Range: `bytes=${from}-${to - 1}` }));
    const stream = res.Body as Readable;
    const m = /^bytes (\d+)-/.exec(res.ContentRange ?? '');
    let skip = from - (m ? Number(m[1]) : 0);
    let left = to - from;
    try {
      for await (const raw of stream) {
        let part = raw as Buffer;
        if (skip > 0) {
          const n = Math.min(skip, part.length);
          part = part.subarray(n);
          skip -= n;
        }
        if (part.length > left) part = part.subarray(0, left);
        left -= part.length;
        if (part.length > 0) yield part;
        if (left === 0) return;
      }
    } finally {
      stream.destroy();
    }
  }

  const toBuffer = async (stream: Readable): Promise<Buffer> => {
    const parts: Buffer[] = [];
    for await (const part of stream) parts.push(part as Buffer);
    return Buffer.concat(parts);
  };

  const put = (key: string, data: Buffer) =>
    client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: data, ContentLength: data.length }));

  const deleteKeys = async (keys: string[]): Promise<void> => {
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = keys.slice(i, i + 1000);
      await client.send(
        new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }),
      );
    }
  };

  async function* readRange(fileId: string, start: number, end: number): AsyncGenerator<Buffer> {
    if (end <= start) return;
    let at = 0;
    for (const c of await chunks(fileId)) {
      const from = Math.max(0, start - at);
      const to = Math.min(c.size, end - at);
      at += c.size;
      if (to <= from) {
        if (at >= end) return;
        continue;
      }
      if (from === 0 && to === c.size) {
        for await (const part of await body(c.key)) yield part as Buffer;
      } else {
        yield* objectRange(c.key, from, to);
      }
    }
  }

  const size = async (ref: BinaryRef): Promise<number> =>
    (await chunks(ref.fileId)).reduce((n, c) => n + c.size, 0);

  return {
    id: opts.id,
    type: 's3',

    async create(fileId) {
      await deleteKeys((await chunks(fileId)).map((c) => c.key));
      return '';
    },

    size,

    async append(ref, offset, data, maxBytes) {
      const existing = await chunks(ref.fileId);
      const stored = existing.reduce((n, c) => n + c.size, 0);
      if (offset !== stored) throw offsetConflict(offset, stored);
      const last = existing[existing.length - 1];
      const partial = last && last.size < refill ? last : undefined;
      let head = partial ? await toBuffer(await body(partial.key)) : undefined;
      let nextNr = last ? last.nr + 1 : 0;
      return writeInPieces(limitBytes(data, maxBytes), objectSize, partial ? objectSize - partial.size : 0, async (parts) => {
        const piece = joinParts(parts);
        if (head && partial) {
          const whole = Buffer.concat([head, piece]);
          head = undefined;
          await put(partial.key, whole);
          return;
        }
        await put(chunkKey(ref.fileId, nextNr), piece);
        nextNr += 1;
      });
    },

    read(ref, start = 0, end = Number.MAX_SAFE_INTEGER) {
      return Readable.from(readRange(ref.fileId, start, end), { objectMode: false, highWaterMark: 1 });
    },

    async delete(ref) {
      await deleteKeys((await chunks(ref.fileId)).map((c) => c.key));
    },

    async *list() {
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Delimiter: '/', ContinuationToken: token }),
        );
        for (const p of page.CommonPrefixes ?? []) {
          if (p.Prefix) yield { fileId: p.Prefix.slice(0, -1), location: '' };
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },

    close() {
      client.destroy();
      return Promise.resolve();
    },
  };
};
