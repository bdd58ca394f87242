/**
 * The baseline of the gateway benchmark: the least a gateway can do. Plain
 * node:http, no framework, no auth; each request takes a pooled daemon
 * socket, sends the command, copies the reply's `key: value` lines into JSON.
 * With `express`, the same behind express 5 (`express.json()`, `res.json()`,
 * Pier's request classes): the most any express app can reach.
 * Usage: tsx bench/gateway-forwarder.ts <daemon port> [express]; prints its URL.
 */
import express from 'express';
import { createServer, type RequestListener } from 'node:http';
import { connect, type Socket } from 'node:net';
import { requestClasses } from '../server/http/request-classes.js';

const daemonPort = Number(process.argv[2]);
const withExpress = process.argv[3] === 'express';

interface Conn {
  socket: Socket;
  buf: string;
  done?: (text: string) => void;
}

const idle: Conn[] = [];

const open = (): Promise<Conn> =>
  new Promise((resolve, reject) => {
    const c: Conn = { socket: connect({ host: '127.0.0.1', port: daemonPort, noDelay: true }), buf: '' };
    c.socket.setEncoding('utf8');
    let greeted = false;
    c.socket.on('data', (d: string) => {
      c.buf += d;
      if (!greeted) {
        const nl = c.buf.indexOf('\n');
        if (nl < 0) return;
        greeted = true;
        c.buf = c.buf.slice(nl + 1);
        resolve(c);
        return;
      }
      if (c.buf.endsWith('\nOK\n') || c.buf === 'OK\n' || /(^|\n)ACK [^\n]*\n$/.test(c.buf)) {
        const text = c.buf;
        c.buf = '';
        c.done?.(text);
      }
    });
    c.socket.once('error', reject);
  });

const run = async (command: string): Promise<string> => {
  const c = idle.pop() ?? (await open());
  const text = await new Promise<string>((resolve) => {
    c.done = resolve;
    c.socket.write(`${command}\n`);
  });
  idle.push(c);
  return text;
};

/** The reply's `key: value` lines as an object. */
const fields = (text: string): Record<string, string> => {
  const result: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const i = line.indexOf(': ');
    if (i > 0) result[line.slice(0, i)] = line.slice(i + 2);
  }
  return result;
};

const plain: RequestListener = (req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (d: Buffer) => chunks.push(d));
  req.on('end', () => {
    const { command } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { command: string };
    run(command).then(
      (text) => {
        const body = JSON.stringify({ success: true, result: fields(text) });
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
        res.end(body);
      },
      (e: unknown) => {
        res.writeHead(502).end(String(e));
      },
    );
  });
};

const server = (() => {
  if (!withExpress) return createServer(plain);
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.post('/', express.json(), (req, res, next) => {
    run((req.body as { command: string }).command).then((text) => res.json({ success: true, result: fields(text) }), next);
  });
  return createServer(requestClasses(app), app);
})();
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const a = server.address();
  console.log(`BENCH ${JSON.stringify({ url: `http://127.0.0.1:${typeof a === "object" && a ? a.port : 0}` })}`);
});
