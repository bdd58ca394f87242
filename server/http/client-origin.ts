/**
 * Who a request comes from. Forwarding headers (`X-Forwarded-For`,
 * `X-Forwarded-Host`, `X-Forwarded-Proto`, proxy-login headers) are believed
 * only when the socket peer is one of the configured `trusted-proxies`; from
 * anyone else they are ignored. Also where a request was addressed to: its own
 * origin (for the cross-origin check) and the base URL of the links built for
 * it (mails, QR codes, tus `Location`).
 */
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { hostname as machineName, networkInterfaces } from 'node:os';
import type { TLSSocket } from 'node:tls';
import type { Clock } from '../common/clock.js';
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

/** What the links of a request depend on (a subset of `Config`). */
export interface LinkConfig {
  baseUrl: string;
  baseUrlIsLocal: boolean;
  trustedProxies: readonly string[];
}

export interface Links {
  /**
   * The base URL for absolute links. A public `base-url` always; while it is
   * local: the forwarded host and scheme from a trusted proxy, else the
   * request's `Host` when it names one of this machine's own addresses with
   * the port the request came in on, else `base-url`. So no client can make
   * the server mail a link to another host.
   */
  baseUrl(req: IncomingMessage): string;
  /**
   * The origin (`scheme://host[:port]`) the client addressed: the forwarded
   * host from a trusted proxy, else `Host`; undefined without a usable host.
   */
  requestOrigin(req: IncomingMessage): string | undefined;
}

const hostPattern = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/** `scheme://host` normalised (lower case, default port dropped), or undefined when `host` is no plain host[:port]. */
const originOf = (scheme: string, host: string | undefined): URL | undefined => {
  if (!host || !hostPattern.test(host)) return undefined;
  try {
    return new URL(`${scheme}://${host}`);
  } catch {
    return undefined;
  }
};

const REFRESH_MS = 1000;

/**
 * This machine's own host names: the addresses of its interfaces, `localhost`,
 * its host name (and `<name>.local`, as mDNS announces it) and the host of
 * `base-url`. Interfaces come and go (Wi-Fi, VPN): an unknown name re-reads
 * them, at most once a second.
 */
const ownHosts = (baseUrl: string, clock: Clock): ((hostname: string) => boolean) => {
  const fixed = new Set(['localhost']);
  const name = machineName().toLowerCase();
  if (name) fixed.add(name).add(`${name}.local`);
  try {
    fixed.add(new URL(baseUrl).hostname);
  } catch {
    // validated at start-up
  }
  let known = new Set<string>();
  let readAt = -Infinity;
  const read = () => {
    known = new Set(fixed);
    for (const list of Object.values(networkInterfaces())) {
      for (const a of list ?? []) {
        const url = originOf('http', a.family === 'IPv6' ? `[${a.address}]` : a.address);
        if (url) known.add(url.hostname);
      }
    }
    readAt = clock.now();
  };
  return (hostname) => {
    if (!known.has(hostname) && clock.now() - readAt >= REFRESH_MS) read();
    return known.has(hostname);
  };
};

export const createLinks = (config: LinkConfig, clock: Clock, origin: ClientOrigin = createClientOrigin(config.trustedProxies)): Links => {
  const isOwn = ownHosts(config.baseUrl, clock);
  const configured = new URL(config.baseUrl);
  const scheme = (req: IncomingMessage, host: string | undefined): string => {
    const proto = origin.forwarded(req, 'x-forwarded-proto')?.toLowerCase();
    if (proto === 'https' || proto === 'http') return proto;
    if ((req.socket as Partial<TLSSocket>).encrypted) return 'https';
    // a TLS proxy that is not configured as trusted: the configured URL knows the scheme of its own host
    return host !== undefined && host.toLowerCase() === configured.host ? configured.protocol.slice(0, -1) : 'http';
  };
  const addressed = (req: IncomingMessage): { host: string | undefined; proxied: boolean } => {
    const forwarded = origin.forwarded(req, 'x-forwarded-host');
    if (forwarded) return { host: forwarded, proxied: true };
    return { host: req.headers.host, proxied: origin.fromTrustedProxy(req) };
  };
  return {
    requestOrigin(req) {
      const { host } = addressed(req);
      return originOf(scheme(req, host), host)?.origin;
    },
    baseUrl(req) {
      if (!config.baseUrlIsLocal) return config.baseUrl;
      const { host, proxied } = addressed(req);
      const url = originOf(scheme(req, host), host);
      if (!url) return config.baseUrl;
      // a trusted proxy names the public host; anyone else only this machine, on the port the request came in on
      if (proxied) return url.origin;
      const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
      return isOwn(url.hostname) && port === req.socket.localPort ? url.origin : config.baseUrl;
    },
  };
};
