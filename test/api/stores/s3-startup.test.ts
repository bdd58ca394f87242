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
  chunkSize: 1024,
  log: silentLogger,
  ...over,
});

describe('s3 store start-up', () => {
  it('creates a missing bucket, and uses an existing one', async () => {
    const a = await createS3Store(options());
    const b = await createS3Store(options());
    await a.close?.();
    await b.close?.();
  });

  it('fails with a message naming the bucket and endpoint when the server is unreachable', async () => {
    const endpoint = `http://127.0.0.1:${await freePort()}`;
    await expect(createS3Store(options({ endpoint }))).rejects.toThrow(`bucket "pier-startup" at ${endpoint}`);
  });

  it('fails when the credentials are refused', async () => {
    await expect(createS3Store(options({ accessKey: 'WRONG', secretKey: 'WRONG' }))).rejects.toThrow(/HTTP 403/);
  });
});
