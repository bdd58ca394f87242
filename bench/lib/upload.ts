import { createReadStream, statSync } from 'node:fs';
import { basename } from 'node:path';
import { Upload } from 'tus-js-client';

const CHUNK = 10 * 1024 * 1024;

/** Uploads a file with tus-js-client (10 MiB chunks). */
export const tusUpload = (file: string, endpoint: string, headers: Record<string, string>, filetype = 'application/octet-stream'): Promise<void> =>
  new Promise((resolve, reject) => {
    const u = new Upload(createReadStream(file, { highWaterMark: CHUNK }), {
      endpoint,
      chunkSize: CHUNK,
      uploadSize: statSync(file).size,
      headers,
      metadata: { filename: basename(file), filetype },
      retryDelays: [],
      onError: reject,
      onSuccess: () => resolve(),
    });
    u.start();
  });
