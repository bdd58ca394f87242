/**
 * The names this server answers to. A page of any web site can make the
 * browser send requests to a name it controls and then rebind that name to
 * 127.0.0.1 or a LAN address (DNS rebinding); the page would then read Pier's
 * answers as its own origin. So a request is served only when the name it
 * was sent to is one of the server's own:
 * - loopback names and addresses (`localhost`, `*.localhost`, 127.0.0.0/8, `::1`,
 *   and `0.0.0.0` and `::`, which reach this machine),
 * - the addresses of this machine's interfaces,
 * - this machine's host name alone or with any domain a LAN router adds
 *   (`nas`, `nas.local`, `nas.lan`, `nas.fritz.box`: the first label equals
 *   the host name's first label),
 * - the host of `base-url`,
 * - the entries of `allowed-hosts`: a name, `.example.org` for that domain
 *   and every name below it, or `*` for any name.
 * The port is not part of the check. Interfaces come and go (Wi-Fi, VPN): an
 * unknown address re-reads them, at most once a second.
 */
import { isIP } from 'node:net';
import { hostname as machineName, networkInterfaces } from 'node:os';
import type { Clock } from '../common/clock.js';

export interface OwnHosts {
  /** True when `hostname` (as `URL.hostname` gives it: lower case, IPv6 in brackets) names this server. */
  accepts(hostname: string): boolean;
}

export interface OwnHostsConfig {
  baseUrl: string;
  allowedHosts?: readonly string[];
}

const REFRESH_MS = 1000;

/** `URL.hostname` of `host` (a name, an IPv4 or a bracketed or bare IPv6 address), or undefined. */
export const normalHostname = (host: string): string | undefined => {
  try {
    return new URL(`http://${isIP(host) === 6 ? `[${host}]` : host}`).hostname || undefined;
  } catch {
    return undefined;
  }
};

/** Loopback, and the unspecified addresses that a server bound to every interface prints as its URL (they reach this machine). */
const loopback = (hostname: string): boolean =>
  hostname === 'localhost' ||
  hostname.endsWith('.localhost') ||
  /^127\.\d+\.\d+\.\d+$/.test(hostname) ||
  hostname === '[::1]' ||
  hostname === '0.0.0.0' ||
  hostname === '[::]';

export const createOwnHosts = (config: OwnHostsConfig, clock: Clock): OwnHosts => {
  const allowed = config.allowedHosts ?? [];
  const any = allowed.includes('*');
  const names = new Set<string>();
  const domains: string[] = [];
  for (const entry of allowed) {
    const e = entry.trim().toLowerCase();
    if (e.startsWith('.')) domains.push(e);
    else {
      const n = normalHostname(e);
      if (n) names.add(n);
    }
  }
  try {
    names.add(new URL(config.baseUrl).hostname);
  } catch {
    // validated at start-up
  }
  const label = machineName().toLowerCase().split('.')[0] ?? '';

  let addresses = new Set<string>();
  let readAt = -Infinity;
  const read = (): void => {
    addresses = new Set();
    for (const list of Object.values(networkInterfaces())) {
      for (const a of list ?? []) {
        const n = normalHostname(a.address);
        if (n) addresses.add(n);
      }
    }
    readAt = clock.now();
  };
  const isAddress = (hostname: string): boolean => {
    if (!addresses.has(hostname) && clock.now() - readAt >= REFRESH_MS) read();
    return addresses.has(hostname);
  };
  const isMachineName = (hostname: string): boolean => label !== '' && isIP(hostname) === 0 && hostname.split('.')[0] === label;

  return {
    accepts(hostname) {
      const h = hostname.toLowerCase().replace(/\.$/, '');
      return (
        any ||
        loopback(h) ||
        names.has(h) ||
        isMachineName(h) ||
        domains.some((d) => h.endsWith(d) || h === d.slice(1)) ||
        (h.startsWith('[') || isIP(h) === 4 ? isAddress(h) : false)
      );
    },
  };
};
