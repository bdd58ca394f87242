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
import type { TLSSocket } from 'node:tls';
import { inRanges, parseIpRanges, plainAddress } from '../common/ip-ranges.js';
import { createOwnHosts, type OwnHosts, type OwnHostsConfig } from './own-hosts.js';
import type { Clock } from '../common/clock.js';

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
export interface LinkConfig extends OwnHostsConfig {
  baseUrl: string;
  baseUrlIsLocal: boolean;
  trustedProxies: readonly string[];
}

export interface Links {
  /**
   * The base URL for absolute links. A public `base-url` always; while it is
   * local: the forwarded host and scheme from a trusted proxy, else the
   * request's `Host` when it names this server (`own-hosts.ts`) with the
   * port the server listens on, else the host of `base-url` with that port.
   * So no client can make the server mail a link to another host or port.
   */
  baseUrl(req: IncomingMessage): string;
  /**
   * The origin (`scheme://host[:port]`) the client addressed: the forwarded
   * host from a trusted proxy, else `Host`; undefined without a usable host.
   */
  requestOrigin(req: IncomingMessage): string | undefined;
  /**
   * The name a request was sent to when that is none of this server's own
   * (a trusted proxy's forwarded host, else `Host`); undefined when it is
   * one, or when the request names none (HTTP/1.0).
   */
  foreignHost(req: IncomingMessage): string | undefined;
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

/** `scheme://hostname[:port]`, the port left out when it is the scheme's default. */
const withPort = (scheme: string, hostname: string, port: number | undefined): string => {
  const url = new URL(`${scheme}://${hostname}`);
  if (port !== undefined) url.port = String(port);
  return url.origin;
};

export const createLinks = (
  config: LinkConfig,
  clock: Clock,
  origin: ClientOrigin = createClientOrigin(config.trustedProxies),
  hosts: OwnHosts = createOwnHosts(config, clock),
): Links => {
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
    foreignHost(req) {
      const forwarded = origin.forwarded(req, 'x-forwarded-host');
      const host = forwarded && originOf('http', forwarded) ? forwarded : req.headers.host;
      if (host === undefined) return undefined;
      const url = originOf('http', host);
      return url && hosts.accepts(url.hostname) ? undefined : host;
    },
    baseUrl(req) {
      if (!config.baseUrlIsLocal) return config.baseUrl;
      const { host, proxied } = addressed(req);
      const s = scheme(req, host);
      const url = originOf(s, host);
      // a trusted proxy names the public host; anyone else only this server, on the port it listens on
      if (url && proxied) return url.origin;
      const port = req.socket.localPort;
      if (url && hosts.accepts(url.hostname)) return withPort(s, url.hostname, port);
      return withPort(configured.protocol.slice(0, -1), configured.hostname, port ?? (configured.port ? Number(configured.port) : undefined));
    },
  };
};
