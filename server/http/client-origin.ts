/**
 * Who a request comes from. Forwarding headers (`X-Forwarded-For`,
 * `X-Forwarded-Host`, `X-Forwarded-Proto`, proxy-login headers) are believed
 * only when the socket peer is one of the configured `trusted-proxies`; from
 * anyone else they are ignored.
 */
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { inRanges, parseIpRanges, plainAddress } from '../common/ip-ranges.js';

export interface ClientOrigin {
  /** true when the socket peer is a configured trusted proxy */
  fromTrustedProxy(req: IncomingMessage): boolean;
  /**
   * The client's address for rate limits and logs: the socket peer, or, when the
   * peer is a trusted proxy, the right-most address of `X-Forwarded-For` that is
   * not itself a trusted proxy.
   */
  clientAddress(req: IncomingMessage): string;
  /** The first value of a forwarding header, only from a trusted proxy. */
  forwarded(req: IncomingMessage, header: string): string | undefined;
}

export const createClientOrigin = (trustedProxies: readonly string[]): ClientOrigin => {
  const trusted = parseIpRanges(trustedProxies);
  const none = trustedProxies.length === 0;
  const fromTrustedProxy = (req: IncomingMessage): boolean => !none && inRanges(trusted, req.socket.remoteAddress);
  const header = (req: IncomingMessage, name: string): string | undefined => {
    const v = req.headers[name.toLowerCase()];
    return Array.isArray(v) ? v.join(',') : v;
  };
  return {
    fromTrustedProxy,
    clientAddress(req) {
      const peer = plainAddress(req.socket.remoteAddress ?? 'unknown');
      if (!fromTrustedProxy(req)) return peer;
      const hops = (header(req, 'x-forwarded-for') ?? '').split(',').map((s) => plainAddress(s.trim())).filter((s) => isIP(s) !== 0);
      for (let i = hops.length - 1; i >= 0; i--) if (!inRanges(trusted, hops[i])) return hops[i]!;
      return hops[0] ?? peer;
    },
    forwarded(req, name) {
      if (!fromTrustedProxy(req)) return undefined;
      return header(req, name)?.split(',')[0]?.trim() || undefined;
    },
  };
};
