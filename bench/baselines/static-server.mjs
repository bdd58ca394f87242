// Anchor: a file piped into the response with 1 MiB reads, as plain as Node
// gets. Every path answers with the same file. Usage: node static-server.mjs <file>
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';

const file = process.argv[2];
const server = createServer((req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': statSync(file).size });
  createReadStream(file, { highWaterMark: 1024 * 1024 }).pipe(res);
});
server.listen(0, '127.0.0.1', () => console.log(`listening http://127.0.0.1:${server.address().port}`));
