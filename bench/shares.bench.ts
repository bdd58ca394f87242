/**
 * The share benchmarks of issue 3 (`npm run bench:shares`): needs `dist/`
 * (`npm run build:server`). Each prints `<name>: ratio <pier/baseline> (...)`.
 */
import { benchDownload } from './download.bench.js';
import { benchUploadTus } from './upload-tus.bench.js';
import { benchZip } from './zip.bench.js';

const which = process.argv.slice(2);
const all: Record<string, () => Promise<void>> = { 'upload-tus': benchUploadTus, download: benchDownload, zip: benchZip };
for (const [name, run] of Object.entries(all)) {
  if (which.length === 0 || which.includes(name)) await run();
}
