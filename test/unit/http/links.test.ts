/**
 * The base URL of links while `base-url` is local: a `Host` counts only when
 * it names one of this machine's own addresses (its interfaces, `localhost`,
 * its host name, the host of `base-url`) with the port the request came in
 * on; forwarding headers and any `Host` only from a trusted proxy.
 */
import type { IncomingMessage } from 'node:http';
import { hostname, networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../../server/common/clock.js';
import { createLinks } from '../../../server/http/client-origin.js';

const PORT = 9090;
const req = (headers: Record<string, string>, peer = '192.168.1.20', localPort = PORT): IncomingMessage =>
  ({ socket: { remoteAddress: peer, localPort }, headers }) as unknown as IncomingMessage;

const local = { baseUrl: 'http://localhost:9090', baseUrlIsLocal: true, trustedProxies: [] };

describe('the base URL of links', () => {
  const links = createLinks(local, systemClock);

  it('uses a Host naming an address of this machine on the port the request came in on', () => {
    const addresses = Object.values(networkInterfaces()).flatMap((l) => l ?? []);
    expect(addresses.length).toBeGreaterThan(0);
    for (const a of addresses) {
      const host = a.family === 'IPv6' ? `[${a.address}]` : a.address;
      expect(links.baseUrl(req({ host: `${host}:${PORT}` }))).toBe(new URL(`http://${host}:${PORT}`).origin);
      // another port than the one the server listens on: the name with the server's port
      expect(links.baseUrl(req({ host: `${host}:${PORT + 1}` }))).toBe(new URL(`http://${host}:${PORT}`).origin);
    }
    expect(links.baseUrl(req({ host: `${hostname()}:${PORT}` }))).toBe(`http://${hostname().toLowerCase()}:${PORT}`);
    expect(links.baseUrl(req({ host: `${hostname()}.local:${PORT}` }))).toBe(`http://${hostname().toLowerCase()}.local:${PORT}`);
    // the names a LAN router gives the machine
    const label = hostname().toLowerCase().split('.')[0]!;
    expect(links.baseUrl(req({ host: `${label}.fritz.box:${PORT}` }))).toBe(`http://${label}.fritz.box:${PORT}`);
    expect(links.baseUrl(req({ host: `${label}.lan:${PORT}` }))).toBe(`http://${label}.lan:${PORT}`);
    // without a port, a Host means port 80
    expect(links.baseUrl(req({ host: 'localhost' }, '127.0.0.1', 80))).toBe('http://localhost');
    expect(links.baseUrl(req({ host: 'localhost' }))).toBe(local.baseUrl);
  });

  it('falls back to the host of base-url with the port the server listens on', () => {
    expect(links.baseUrl(req({ host: 'evil.example:9090' }, '192.168.1.20', 8123))).toBe('http://localhost:8123');
    expect(links.baseUrl(req({}, '192.168.1.20', 8123))).toBe('http://localhost:8123');
  });

  it('uses allowed-hosts like the server\'s own names', () => {
    const allowed = createLinks({ ...local, allowedHosts: ['files.example', '.home.example'] }, systemClock);
    expect(allowed.baseUrl(req({ host: 'files.example:9090' }))).toBe('http://files.example:9090');
    expect(allowed.baseUrl(req({ host: 'nas.home.example:9090' }))).toBe('http://nas.home.example:9090');
    expect(allowed.foreignHost(req({ host: 'home.example' }))).toBeUndefined();
    expect(allowed.foreignHost(req({ host: 'evilhome.example' }))).toBe('evilhome.example');
    expect(createLinks({ ...local, allowedHosts: ['*'] }, systemClock).foreignHost(req({ host: 'evil.example' }))).toBeUndefined();
  });

  it('falls back to base-url for any other host, and for values that are no host', () => {
    for (const host of ['evil.example:9090', 'evil.example', 'localhost.evil.example:9090', 'a@localhost:9090', 'localhost:9090/x', '']) {
      expect(links.baseUrl(req({ host }))).toBe(local.baseUrl);
    }
    expect(links.baseUrl(req({ host: 'localhost:9090', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' }))).toBe('http://localhost:9090');
  });

  it('believes a trusted proxy: its forwarded host and scheme, else its Host', () => {
    const proxied = createLinks({ ...local, trustedProxies: ['10.0.0.0/8'] }, systemClock);
    expect(proxied.baseUrl(req({ host: '10.0.0.2:9090', 'x-forwarded-host': 'files.example', 'x-forwarded-proto': 'https' }, '10.0.0.2'))).toBe('https://files.example');
    expect(proxied.baseUrl(req({ host: 'files.example', 'x-forwarded-proto': 'https' }, '10.0.0.2'))).toBe('https://files.example');
    expect(proxied.baseUrl(req({ host: 'files.example', 'x-forwarded-host': 'files.example' }))).toBe(local.baseUrl);
  });

  it('is always a public base-url', () => {
    const fixed = createLinks({ baseUrl: 'https://pier.example', baseUrlIsLocal: false, trustedProxies: ['10.0.0.0/8'] }, systemClock);
    expect(fixed.baseUrl(req({ host: 'localhost:9090', 'x-forwarded-host': 'files.example' }, '10.0.0.2'))).toBe('https://pier.example');
  });
});

describe('the origin a request addressed', () => {
  it('is Host with the scheme of base-url for its host, or a trusted proxy\'s forwarded values', () => {
    const links = createLinks({ baseUrl: 'https://pier.example', baseUrlIsLocal: false, trustedProxies: ['10.0.0.0/8'] }, systemClock);
    expect(links.requestOrigin(req({ host: 'pier.example' }))).toBe('https://pier.example');
    expect(links.requestOrigin(req({ host: '192.168.1.5:9090' }))).toBe('http://192.168.1.5:9090');
    expect(links.requestOrigin(req({ host: '192.168.1.5:9090', 'x-forwarded-host': 'evil.example' }))).toBe('http://192.168.1.5:9090');
    expect(links.requestOrigin(req({ host: '10.0.0.2', 'x-forwarded-host': 'files.example', 'x-forwarded-proto': 'https' }, '10.0.0.2'))).toBe('https://files.example');
    expect(links.requestOrigin(req({}))).toBeUndefined();
  });
});
