/**
 * One client address may hold at most `perAddress` connections at once, so a
 * single neighbour cannot take every place of `limits.connections`. Trusted
 * proxies carry many clients and are not limited here.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { inRanges, parseIpRanges, plainAddress } from '../common/ip-ranges.js';

export const limitConnectionsPerAddress = (server: Server, perAddress: number, trustedProxies: readonly string[]): void => {
  const trusted = parseIpRanges(trustedProxies);
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = plainAddress(socket.remoteAddress ?? 'unknown');
    if (inRanges(trusted, address)) return;
    const n = (open.get(address) ?? 0) + 1;
    if (n > perAddress) {
      socket.destroy();
      return;
    }
    open.set(address, n);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
};
