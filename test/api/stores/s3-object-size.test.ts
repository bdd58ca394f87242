// The S3 store wrote and read objects of `share.chunk-size` (512 KiB by default, a size meant
// for database rows): a download cost a request per 512 KiB, several CPU seconds per GiB.
// Objects are now as large as suits S3, whatever the chunk size; a client's chunks that do not
// fill one leave a short object that the next append fills only while it is small.
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3rver, type S3rverInstance } from '../../support/s3rver.js';
import { startServer, type TestServer } from '../../support/server.js';
import { download, fileIdOf, newShare, randomBytesOf, sha256, tusUpload } from '../uploads/support.js';

const MiB = 1024 * 1024;

describe('objects of the s3 store', () => {
  let s3: S3rverInstance;
  let s: TestServer;
  let token: string;
  beforeAll(async () => {
    s3 = await startS3rver();
    s = await startServer({
      config: {
        backend: {
          share: { 'chunk-size': '256K' },
          files: {
            'default-store': 's3',
            stores: { s3: { enabled: true, type: 's3', endpoint: s3.endpoint, region: s3.region, 'access-key': s3.accessKey, 'secret-key': s3.secretKey, bucket: 'sizes' } },
          },
        },
      },
    });
    token = await s.login('admin', 'admin-test-password');
  }, 30_000);
  afterAll(async () => {
    await s?.stop();
    await s3?.stop();
  });

  const objectSizes = async (): Promise<number[]> => {
    const c = new S3Client({ endpoint: s3.endpoint, region: s3.region, credentials: { accessKeyId: s3.accessKey, secretAccessKey: s3.secretKey }, forcePathStyle: true });
    try {
      const page = await c.send(new ListObjectsV2Command({ Bucket: 'sizes' }));
      return (page.Contents ?? []).sort((a, b) => a.Key!.localeCompare(b.Key!)).map((o) => o.Size ?? 0);
    } finally {
      c.destroy();
    }
  };

  it('stores 8 MiB objects whatever share.chunk-size, and serves the bytes from them', async () => {
    const shareId = await newShare(s, token);
    const data = randomBytesOf(20 * MiB + 5, 3);
    // the web client's chunks are 10 MiB: each leaves a 2 MiB object behind its 8 MiB one
    const url = await tusUpload(s, token, shareId, data, { chunkSize: 10 * MiB });
    expect(await objectSizes()).toEqual([8 * MiB, 2 * MiB, 8 * MiB, 2 * MiB, 5]);
    expect(sha256(await download(s, token, shareId, fileIdOf(url)))).toBe(sha256(data));
  });
});
