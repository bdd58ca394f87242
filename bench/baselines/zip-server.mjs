// Anchor: archiver storing (no compression) every file of a directory into
// the response, in name order. Usage: node zip-server.mjs <dir>
import { createReadStream, readdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { ZipArchive } from 'archiver';

const dir = process.argv[2];
const server = createServer((req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/zip' });
  const zip = new ZipArchive({ store: true });
  zip.on('error', (e) => res.destroy(e));
  zip.pipe(res);
  for (const name of readdirSync(dir).sort()) zip.append(createReadStream(join(dir, name)), { name });
  void zip.finalize();
});
server.listen(0, '127.0.0.1', () => console.log(`listening http://127.0.0.1:${server.address().port}`));
