// The real-client check of the upload benchmark: tus-js-client uploading one
// file in `chunk`-sized PATCHes, in its own process.
// Usage: node tus-js.mjs '<json>' with { url, headers, file, chunk };
// prints {"bytes":…,"files":1,"seconds":…}.
import { createReadStream, statSync } from 'node:fs';
import { basename } from 'node:path';
import { Upload } from 'tus-js-client';

const o = JSON.parse(process.argv[2]);
const size = statSync(o.file).size;
const started = performance.now();
await new Promise((resolve, reject) => {
  new Upload(createReadStream(o.file, { highWaterMark: o.chunk }), {
    endpoint: o.url,
    chunkSize: o.chunk,
    uploadSize: size,
    headers: o.headers,
    metadata: { filename: basename(o.file), filetype: 'application/octet-stream' },
    retryDelays: [],
    onError: reject,
    onSuccess: () => resolve(),
  }).start();
});
console.log(JSON.stringify({ bytes: size, files: 1, seconds: (performance.now() - started) / 1000 }));
