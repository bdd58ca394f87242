// The upload client of the benchmarks, run in its own process so that its CPU
// is not the server's. node:http with a keep-alive agent; request bodies are
// read from the file into buffers that are reused from one request to the
// next and handed to the socket without further copies.
//
// Usage: node upload.mjs '<json>' with
//   { protocol: 'tus' | 'put', url, headers, file, chunk, count, concurrency }
// One file (no `count`): tus creates the upload (POST) and sends `chunk`-sized
// PATCHes; put sends `PUT <url>/<name>?offset=<n>` per chunk (the raw sink).
// Many files (`count`): `count` uploads of the whole file, `concurrency` at a
// time; tus with creation-with-upload (one POST carrying the body), put with
// one PUT each.
// Prints {"bytes":…,"files":…,"seconds":…} for the transfers alone.
import { open } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { basename } from 'node:path';

const o = JSON.parse(process.argv[2]);
const agent = new Agent({ keepAlive: true, maxSockets: o.concurrency ?? 1 });
const b64 = (s) => Buffer.from(s).toString('base64');
const TUS = { 'Tus-Resumable': '1.0.0' };
const OCTETS = 'application/offset+octet-stream';

const send = (method, url, headers, body) =>
  new Promise((resolve, reject) => {
    const req = request(url, { method, agent, headers: { ...o.headers, ...headers, 'Content-Length': body ? body.length : 0 } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });

const expect = (r, status, what) => {
  if (r.status !== status) throw new Error(`${what}: ${r.status} ${r.text.trim()}`);
  return r;
};

const fh = await open(o.file);
const size = (await fh.stat()).size;
const name = basename(o.file);

/** tus PATCHes from `offset` to the end of `body` (or of the file, read into `buf`). */
const patchRest = async (location, offset, buf, body) => {
  while (offset < size) {
    const n = Math.min(buf.length, size - offset);
    let chunk = body?.subarray(offset, offset + n);
    if (!chunk) {
      const { bytesRead } = await fh.read(buf, 0, n, offset);
      chunk = buf.subarray(0, bytesRead);
    }
    const r = expect(await send('PATCH', location, { ...TUS, 'Upload-Offset': offset, 'Content-Type': OCTETS }, chunk), 204, 'PATCH');
    const next = Number(r.headers['upload-offset']);
    if (next !== offset + n) throw new Error(`PATCH: Upload-Offset ${next}, expected ${offset + n}`);
    offset = next;
  }
};

const one = async () => {
  const buf = Buffer.allocUnsafe(Math.min(o.chunk, size));
  if (o.protocol === 'put') {
    for (let offset = 0; offset < size; offset += buf.length) {
      const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, size - offset), offset);
      expect(await send('PUT', `${o.url}/${name}?offset=${offset}`, {}, buf.subarray(0, bytesRead)), 204, 'PUT');
    }
    return;
  }
  const meta = `filename ${b64(name)},filetype ${b64('application/octet-stream')}`;
  const created = expect(await send('POST', o.url, { ...TUS, 'Upload-Length': size, 'Upload-Metadata': meta }), 201, 'POST');
  await patchRest(new URL(created.headers.location, o.url).href, 0, buf);
};

const many = async () => {
  const body = Buffer.allocUnsafe(size);
  await fh.read(body, 0, size, 0);
  let next = 0;
  const worker = async () => {
    while (next < o.count) {
      const i = next++;
      const file = `${i}-${name}`;
      if (o.protocol === 'put') {
        expect(await send('PUT', `${o.url}/${file}?offset=0`, {}, body), 204, 'PUT');
        continue;
      }
      const meta = `filename ${b64(file)},filetype ${b64('application/octet-stream')}`;
      const headers = { ...TUS, 'Upload-Length': size, 'Upload-Metadata': meta, 'Content-Type': OCTETS };
      const r = expect(await send('POST', o.url, headers, body), 201, 'POST');
      const offset = Number(r.headers['upload-offset'] ?? 0);
      if (offset < size) await patchRest(new URL(r.headers.location, o.url).href, offset, body, body);
    }
  };
  await Promise.all(Array.from({ length: o.concurrency ?? 1 }, worker));
};

const started = performance.now();
await (o.count ? many() : one());
const seconds = (performance.now() - started) / 1000;
await fh.close();
agent.destroy();
const files = o.count ?? 1;
console.log(JSON.stringify({ bytes: files * size, files, seconds }));
