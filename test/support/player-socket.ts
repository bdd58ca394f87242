// A client of the player WebSocket for API tests: it collects every frame and the close.
import WebSocket from 'ws';
import type { Json } from './server.js';

export type Envelope = { success: boolean; type: string; result?: Json; ack?: Json; error?: { message: string } };

/**
 * Opens `url` with `headers` (`Service-Auth`, `Cookie`, `Origin`; none for an
 * anonymous caller) and resolves once the socket is open; rejects when the
 * upgrade is refused, with the HTTP status as `status`.
 */
export const openPlayerSocket = async (url: string, headers: Record<string, string> = {}) => {
  const ws = new WebSocket(url, { headers });
  const frames: Envelope[] = [];
  ws.on('message', (d) => frames.push(JSON.parse(String(d)) as Envelope));
  const closed = new Promise<{ code: number; reason: string }>((r) => ws.on('close', (code, reason) => r({ code, reason: reason.toString() })));
  await new Promise((r, j) => {
    ws.once('open', r);
    ws.once('unexpected-response', (_req, res) => {
      res.resume();
      j(Object.assign(new Error(`upgrade refused: ${res.statusCode}`), { status: res.statusCode }));
    });
    ws.once('error', j);
  });
  /** The first frame of `type` from index `from` on, waited for up to 5 s. */
  const next = async (type: string, from: number): Promise<Envelope> => {
    for (let i = 0; i < 100; i++) {
      const f = frames.slice(from).find((x) => x.type === type);
      if (f) return f;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no ${type} frame: ${JSON.stringify(frames)}`);
  };
  return { ws, frames, closed, next };
};
