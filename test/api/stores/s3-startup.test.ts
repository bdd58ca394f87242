import { HeadBucketCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../server/common/log.js';
import { createS3Store } from '../../../server/core/stores/s3.store.js';
import { startS3rver, type S3rverInstance } from '../../support/s3rver.js';
import { freePort } from '../../support/system.js';

let s3: S3rverInstance | undefined;
beforeAll(async () => {
  s3 = await startS3rver();
});
afterAll(async () => {
  await s3?.stop();
});

const options = (over: Partial<Parameters<typeof createS3Store>[0]> = {}) => ({
  id: 's3',
  endpoint: s3!.endpoint,
  region: s3!.region,
  accessKey: s3!.accessKey,
  secretKey: s3!.secretKey,
  bucket: 'pier-startup',
  objectSize: 1024,
  log: silentLogger,
  ...over,
});

/** A client of its own, to look at the bucket from outside the store. */
const client = () =>
  new S3Client({
    endpoint: s3!.endpoint,
    region: s3!.region,
    credentials: { accessKeyId: s3!.accessKey, secretAccessKey: s3!.secretKey },
    forcePathStyle: true,
  });

const bucketExists = async (c: S3Client, bucket: string): Promise<boolean> => {
  try {
    await c.send(new HeadBucketCommand({ Bucket: bucket }));
    return true;
  } catch (e) {
    if (e instanceof S3ServiceException && e.$metadata.httpStatusCode === 404) return false;
    throw e;
  }
};

describe('s3 store start-up', () => {
  it('creates a missing bucket, and uses an existing one', async () => {
    const c = client();
    expect(await bucketExists(c, 'pier-startup')).toBe(false);
    const a = await createS3Store(options());
    expect(await bucketExists(c, 'pier-startup')).toBe(true);
    await a.close?.();

    // an object already in the bucket: the second store starts on it and reads it
    await c.send(new PutObjectCommand({ Bucket: 'pier-startup', Key: 'f1/00000000', Body: 'kept' }));
    const b = await createS3Store(options());
    expect(await bucketExists(c, 'pier-startup')).toBe(true);
    expect(await b.size({ fileId: 'f1', location: '' })).toBe(4);
    await b.close?.();
    c.destroy();
  });

  it('fails with a message naming the bucket and endpoint when the server is unreachable', async () => {
    const endpoint = `http://127.0.0.1:${await freePort()}`;
    await expect(createS3Store(options({ endpoint }))).rejects.toThrow(`bucket "pier-startup" at ${endpoint}`);
  });

  it('fails when the credentials are refused', async () => {
    await expect(createS3Store(options({ accessKey: 'WRONG', secretKey: 'WRONG' }))).rejects.toThrow(/HTTP 403/);
  });
});
