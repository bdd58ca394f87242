/**
 * A throwaway S3-compatible server for tests (`s3rver`, in-process, on
 * 127.0.0.1 and a free port, objects in a temp directory):
 *
 *   const s3 = await startS3rver();
 *   const { endpoint, region, accessKey, secretKey } = s3;
 *   await createS3Store({ id: 's3', endpoint, region, accessKey, secretKey, bucket: 'files', log });
 *   await s3.stop();
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

export interface S3rverInstance {
  endpoint: string;
  accessKey: string;
  secretKey: string;
  region: string;
  /** stops the server and removes its directory */
  stop(): Promise<void>;
  /** takes the endpoint down, keeping the objects (an outage) */
  pause(): Promise<void>;
  /** brings it back on the same address with the same objects */
  resume(): Promise<void>;
}

/** s3rver accepts these credentials only. */
const KEY = 'S3RVER';

export async function startS3rver(): Promise<S3rverInstance> {
  const directory = mkdtempSync(join(tmpdir(), 'pier-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  let address;
  try {
    address = await server.run();
  } catch (e) {
    rmSync(directory, { recursive: true, force: true });
    throw e;
  }
  let stopped: Promise<void> | undefined;
  let current = server;
  const port = address.port;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    accessKey: KEY,
    secretKey: KEY,
    region: 'us-east-1',
    stop: () =>
      (stopped ??= current
        .close()
        .catch(() => undefined)
        .finally(() => rmSync(directory, { recursive: true, force: true }))),
    pause: async () => {
      await current.close();
    },
    resume: async () => {
      current = new S3rver({ address: '127.0.0.1', port, silent: true, directory });
      await current.run();
    },
  };
}
