// The gateway benchmark's client, in its own process: `clients` keep-alive
// connections, each sending the same prebuilt POST as soon as the previous
// answer is complete, for `seconds`. Plain sockets instead of node:http keep
// the client's own CPU per request small.
// Usage: node gateway-load.mjs '<json>' with { url, path, headers, body, clients, seconds };
// prints {"bytes":0,"files":<requests>,"seconds":…,"p50":<ms>,"p99":<ms>}.
// Any answer other than 200 ends it with an error.
import { connect } from 'node:net';

const o = JSON.parse(process.argv[2]);
const u = new URL(o.url);
const body = Buffer.from(o.body);
const head =
  `POST ${o.path} HTTP/1.1\r\nHost: ${u.host}\r\nConnection: keep-alive\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n` +
  Object.entries(o.headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
const request = Buffer.concat([Buffer.from(`${head}\r\n`), body]);
const latencies = [];
const until = Date.now() + o.seconds * 1000;

const client = () =>
  new Promise((resolve, reject) => {
    const s = connect({ host: u.hostname, port: Number(u.port), noDelay: true });
    let buf = Buffer.alloc(0);
    let sent = 0n;
    const send = () => {
      if (Date.now() >= until) {
        s.end();
        return resolve();
      }
      sent = process.hrtime.bigint();
      s.write(request);
    };
    s.on('connect', send);
    s.on('data', (d) => {
      buf = buf.length ? Buffer.concat([buf, d]) : d;
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      const text = buf.subarray(0, end).toString('latin1');
      const length = /\r\ncontent-length: *(\d+)/i.exec(text);
      if (!length) return reject(new Error(`an answer without Content-Length:\n${text}`));
      if (buf.length < end + 4 + Number(length[1])) return;
      if (!text.startsWith('HTTP/1.1 200')) return reject(new Error(`${text.split('\r\n')[0]}: ${buf.subarray(end + 4).toString()}`));
      latencies.push(Number(process.hrtime.bigint() - sent) / 1e6);
      buf = Buffer.alloc(0);
      send();
    });
    s.on('error', reject);
  });

const started = performance.now();
await Promise.all(Array.from({ length: o.clients }, client)).catch((e) => {
  console.error(e.message);
  process.exit(1);
});
const seconds = (performance.now() - started) / 1000;
latencies.sort((a, b) => a - b);
const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))];
console.log(JSON.stringify({ bytes: 0, files: latencies.length, seconds, p50: at(0.5), p99: at(0.99) }));
