// `GET /api/v2/sec/info/addresses`: what a phone on the LAN can open, from real
// servers bound to every interface, to loopback, and with a public base URL.
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startServer, type TestServer } from '../../support/server.js';

const PATH = '/api/v2/sec/info/addresses';

/** This machine's non-internal IPv4 addresses, link-local ones left out. */
const machineIPv4 = (): string[] =>
  Object.values(networkInterfaces())
    .flatMap((l) => l ?? [])
    .filter((a) => a.family === 'IPv4' && !a.internal && !a.address.startsWith('169.254.'))
    .map((a) => a.address);

const isPrivate = (a: string): boolean => /^(10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|f[cd])/i.test(a);
// the interfaces of VPNs, containers and virtual machines (server/core/info/addresses.ts)
const virtual = /^(docker|br-|veth|cni|flannel|cali|weave|kube|podman|lxcbr|lxdbr|virbr|vnet|vmnet|vboxnet|tun|tap|wg|tailscale|utun|zt|ppp|ipsec|gpd|nordlynx|proton)|virtualbox|vmware|vethernet|hyper-v|wsl|vpn/i;

const isUnusable = (a: string): boolean => /^(169\.254\.|100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\.|fe[89ab]|0\.)/i.test(a);

/** The addresses a phone on the LAN can use: private ones of real interfaces, else (none private among `families`) their public ones. */
const lanAddresses = (family: 'IPv4' | 'IPv6', families: ('IPv4' | 'IPv6')[] = [family]): string[] => {
  const real = Object.entries(networkInterfaces())
    .filter(([name]) => !virtual.test(name))
    .flatMap(([, l]) => l ?? [])
    .filter((a) => families.includes(a.family as 'IPv4') && !a.internal && !isUnusable(a.address));
  const anyPrivate = real.some((a) => isPrivate(a.address));
  return real.filter((a) => a.family === family && (!anyPrivate || isPrivate(a.address))).map((a) => a.address);
};
const lanIPv4 = (): string[] => lanAddresses('IPv4');

const portOf = (s: TestServer): number => Number(new URL(s.url).port);

describe('addresses of a server bound to 0.0.0.0', () => {
  let s: TestServer;
  let token: string;
  beforeAll(async () => {
    s = await startServer({ config: { bind: { address: '0.0.0.0', port: 0 } } });
    token = await s.login(ADMIN.login, ADMIN.password);
  });
  afterAll(() => s.stop());

  it('are every LAN IPv4 address of the machine with the port it listens on', async () => {
    expect(machineIPv4().length, 'this test needs a machine with a non-loopback IPv4 address').toBeGreaterThan(0);
    const res = await s.request<{ lan: boolean; urls: string[] }>('GET', PATH, undefined, { token });
    expect(res.status).toBe(200);
    expect(res.body.lan).toBe(true);
    expect(portOf(s)).toBeGreaterThan(0);
    expect([...res.body.urls].sort()).toEqual(lanIPv4().map((a) => `http://${a}:${portOf(s)}`).sort());
  });

  it('answer a phone at the first of them: the web client is there', async () => {
    const res = await s.request<{ urls: string[] }>('GET', PATH, undefined, { token });
    expect(res.body.urls.length).toBeGreaterThan(0);
    const page = await fetch(`${res.body.urls[0]}/app/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="app"');
  });

  it('are for signed-in users only: 401 without a token, and no such route under /open', async () => {
    const anonymous = await s.request('GET', PATH);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ success: false, message: 'Authentication failed.' });
    const open = await s.request('GET', '/api/v2/open/info/addresses', undefined, { unchecked: true });
    expect(open.status).toBe(404);
  });
});

describe('addresses of a server bound to 127.0.0.1', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(() => s.stop());

  it('are none: the server listens on this computer only', async () => {
    const token = await s.login(ADMIN.login, ADMIN.password);
    const res = await s.request('GET', PATH, undefined, { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ lan: false, urls: [] });
  });
});

describe('addresses of a server bound to one LAN address', () => {
  it('are that address', async () => {
    const address = machineIPv4()[0]!;
    const s = await startServer({ config: { bind: { address, port: 0 } } });
    try {
      const token = await s.login(ADMIN.login, ADMIN.password);
      const res = await s.request('GET', PATH, undefined, { token });
      expect(res.body).toEqual({ lan: true, urls: [`http://${address}:${portOf(s)}`] });
    } finally {
      await s.stop();
    }
  });
});

describe('addresses of a server bound to ::', () => {
  it('are the IPv4 addresses, then the IPv6 ones (private ones when there are any)', async () => {
    const s = await startServer({ config: { bind: { address: '::', port: 0 } } });
    try {
      const token = await s.login(ADMIN.login, ADMIN.password);
      const res = await s.request<{ lan: boolean; urls: string[] }>('GET', PATH, undefined, { token });
      const v6 = lanAddresses('IPv6', ['IPv4', 'IPv6']).map((a) => `http://[${a}]:${portOf(s)}`);
      const v4 = lanAddresses('IPv4', ['IPv4', 'IPv6']).map((a) => `http://${a}:${portOf(s)}`);
      expect(res.body.lan).toBe(true);
      expect(res.body.urls.slice(0, v4.length).sort()).toEqual(v4.sort());
      expect(res.body.urls.slice(v4.length).sort()).toEqual(v6.sort());
    } finally {
      await s.stop();
    }
  });
});

describe('addresses with a public base-url', () => {
  it('are the base URL alone, whatever the server binds to', async () => {
    const s = await startServer({ config: { 'base-url': 'https://files.example.test' } });
    try {
      const token = await s.login(ADMIN.login, ADMIN.password);
      const res = await s.request('GET', PATH, undefined, { token });
      expect(res.body).toEqual({ lan: true, urls: ['https://files.example.test'] });
    } finally {
      await s.stop();
    }
  });
});
