import { afterAll, beforeAll } from 'vitest';
import { silentLogger } from '../../../server/common/log.js';
import { createS3Store } from '../../../server/core/stores/s3.store.js';
import { startS3rver, type S3rverInstance } from '../../support/s3rver.js';
import { storeContract } from './store-contract.js';

let s3: S3rverInstance | undefined;
beforeAll(async () => {
  s3 = await startS3rver();
});
afterAll(async () => {
  await s3?.stop();
});

let n = 0;
// a bucket per store: created by the store at start-up
storeContract('s3 (s3rver)', (chunkSize) =>
  createS3Store({
    id: 's3',
    endpoint: s3!.endpoint,
    region: s3!.region,
    accessKey: s3!.accessKey,
    secretKey: s3!.secretKey,
    bucket: `pier-test-${n++}`,
    objectSize: chunkSize,
    log: silentLogger,
  }),
);
