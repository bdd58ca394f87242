/**
 * One client address may hold at most `perAddress` connections at once, so a
 * single neighbour cannot take every place of `limits.connections`; of those,
 * at most `anonymousPerAddress` may be connections on which no request has
 * signed in yet (a valid token or session cookie), so that addresses without
 * an account hold only a small share of the places, however slowly they
 * send. A connection counts as anonymous from its opening until `signedIn`
 * is called for it. Trusted proxies carry many clients and are not limited
 * here; loopback addresses (this machine: the desktop window, a reverse proxy
 * on the same host) are held to `perAddress` only.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { inRanges, parseIpRanges, plainAddress } from '../common/ip-ranges.js';

export interface ConnectionCaps {
  perAddress: number;
  anonymousPerAddress: number;
  trustedProxies: readonly string[];
}

/** What makes a connection signed in, by socket; set while the connection counts as anonymous. */
const signIns = new WeakMap<object, () => void>();

/** The connection of a request that authenticated a user: it no longer counts against the anonymous cap. */
export const signedIn = (socket: Socket | Duplex): void => {
  const promote = signIns.get(socket);
  if (!promote) return;
  signIns.delete(socket);
  promote();
};

const loopback = parseIpRanges(['127.0.0.0/8', '::1']);

export const limitConnectionsPerAddress = (server: Server, caps: ConnectionCaps): void => {
  const trusted = parseIpRanges(caps.trustedProxies);
  const open = new Map<string, { all: number; anonymous: number }>();
  server.on('connection', (socket: Socket) => {
    const address = plainAddress(socket.remoteAddress ?? 'unknown');
    if (inRanges(trusted, address)) return;
    const counts = open.get(address) ?? { all: 0, anonymous: 0 };
    if (counts.all >= caps.perAddress || (counts.anonymous >= caps.anonymousPerAddress && !inRanges(loopback, address))) {
      socket.destroy();
      return;
    }
    counts.all++;
    counts.anonymous++;
    open.set(address, counts);
    let anonymous = true;
    signIns.set(socket, () => {
      anonymous = false;
      counts.anonymous--;
    });
    socket.once('close', () => {
      counts.all--;
      if (anonymous) counts.anonymous--;
      if (counts.all <= 0) open.delete(address);
    });
  });
};
