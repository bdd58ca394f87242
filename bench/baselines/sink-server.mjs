// Baseline: the least an upload server can do. Speaks just enough tus for
// tus-js-client (create, offset, append) and pipes each request body straight
// into a file.
import { createWriteStream, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';

const dir = process.argv[2];
let next = 0;
const lengths = new Map();
const server = createServer(async (req, res) => {
  res.setHeader('Tus-Resumable', '1.0.0');
  if (req.method === 'POST') {
    const id = String(++next);
    writeFileSync(join(dir, id), '');
    lengths.set(id, req.headers['upload-length']);
    res.writeHead(201, { Location: `/files/${id}` }).end();
    return;
  }
  const id = req.url.split('/').pop();
  const path = join(dir, id);
  if (req.method === 'HEAD') {
    res.writeHead(200, { 'Upload-Offset': statSync(path).size, 'Upload-Length': lengths.get(id), 'Cache-Control': 'no-store' }).end();
    return;
  }
  if (req.method === 'PATCH') {
    await pipeline(req, createWriteStream(path, { flags: 'a' }));
    res.writeHead(204, { 'Upload-Offset': statSync(path).size }).end();
    return;
  }
  res.writeHead(204).end();
});
server.listen(0, '127.0.0.1', () => console.log(`listening http://127.0.0.1:${server.address().port}`));
