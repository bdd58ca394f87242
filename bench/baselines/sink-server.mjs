// Anchor: the least an upload server can do. `PUT /<name>?offset=<n>` writes
// the request body into <dir>/<name> from byte n on; no ids, no metadata, no
// checks. Usage: node sink-server.mjs <dir>
import { createWriteStream } from 'node:fs';
import { createServer } from 'node:http';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';

const dir = process.argv[2];
const server = createServer((req, res) => {
  const url = new URL(req.url, 'http://sink');
  const offset = Number(url.searchParams.get('offset') ?? 0);
  const out = createWriteStream(join(dir, basename(url.pathname)), { flags: offset === 0 ? 'w' : 'r+', start: offset });
  pipeline(req, out).then(
    () => res.writeHead(204).end(),
    (e) => res.writeHead(500).end(String(e)),
  );
});
server.listen(0, '127.0.0.1', () => console.log(`listening http://127.0.0.1:${server.address().port}`));
