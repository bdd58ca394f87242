import type { NetworkInterfaceInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { reachableAddresses, type AddressInput } from '../../../server/core/info/addresses.js';

const nic = (address: string, internal = false): NetworkInterfaceInfo =>
  ({ address, internal, family: address.includes(':') ? 'IPv6' : 'IPv4', netmask: '', mac: '', cidr: null }) as NetworkInterfaceInfo;

// a laptop: loopback, a Docker bridge, a VPN, Wi-Fi with IPv6, a cable without DHCP answer
const interfaces = {
  lo: [nic('127.0.0.1', true), nic('::1', true)],
  docker0: [nic('172.17.0.1')],
  tun0: [nic('10.8.0.6')],
  wlan0: [nic('192.168.1.20'), nic('fe80::1c2b:3aff:fe4d:5e6f'), nic('2001:db8::20'), nic('fd12:3456::20')],
  eth0: [nic('169.254.10.3')],
  wan: [nic('203.0.113.7')],
};

const at = (bindAddress: string, extra: Partial<AddressInput> = {}) =>
  reachableAddresses({ bindAddress, baseUrl: 'http://localhost:9090', baseUrlIsLocal: true, port: 8123, interfaces, ...extra });

describe('reachable addresses', () => {
  // Regression: every address of the machine was listed, so a signed-in user learnt its VPN,
  // container and public addresses, none of which a phone on the LAN can use.
  it('of 0.0.0.0: the private IPv4 addresses of real interfaces, 192.168 then 10 then 172.16; no VPN, container, link-local or loopback one, nor a public one while there is a private one', () => {
    expect(at('0.0.0.0')).toEqual({ lan: true, urls: ['http://192.168.1.20:8123'] });
    const office = { eth0: [nic('172.20.1.5'), nic('10.1.2.3')], wg0: [nic('10.9.0.2')], tailscale0: [nic('100.101.102.103')], 'br-3f2a': [nic('172.18.0.1')], vboxnet0: [nic('192.168.56.1')] };
    expect(at('0.0.0.0', { interfaces: office }).urls).toEqual(['http://10.1.2.3:8123', 'http://172.20.1.5:8123']);
  });

  it('of ::: the IPv4 addresses, then the unique-local IPv6 ones in brackets; never link-local, nor global while there is a private one', () => {
    for (const bind of ['::', '[::]', '::0']) {
      expect(at(bind).urls).toEqual(['http://192.168.1.20:8123', 'http://[fd12:3456::20]:8123']);
    }
  });

  it('of an address bound explicitly: that one, whatever its range', () => {
    expect(at('203.0.113.7')).toEqual({ lan: true, urls: ['http://203.0.113.7:8123'] });
    expect(at('10.8.0.6')).toEqual({ lan: true, urls: ['http://10.8.0.6:8123'] });
  });

  // Regression: a machine on a network of public addresses (a campus, the test machines) had
  // no address to give, and its links named 127.0.0.1, which no phone can open.
  it('of 0.0.0.0 on a network without private addresses: the public ones of real interfaces, never link-local, carrier-NAT or VPN', () => {
    const campus = { lo: [nic('127.0.0.1', true)], eth0: [nic('169.254.4.4'), nic('192.0.2.2'), nic('fe80::2')], tailscale0: [nic('100.64.1.2')], wg0: [nic('198.51.100.9')] };
    expect(at('0.0.0.0', { interfaces: campus })).toEqual({ lan: true, urls: ['http://192.0.2.2:8123'] });
    expect(at('::', { interfaces: { eth0: [nic('2001:db8::7'), nic('203.0.113.8'), nic('fe80::2')] } }).urls).toEqual(['http://203.0.113.8:8123', 'http://[2001:db8::7]:8123']);
  });

  it('of a machine without a network: none, though it listens on the LAN', () => {
    expect(at('0.0.0.0', { interfaces: { lo: [nic('127.0.0.1', true)] } })).toEqual({ lan: true, urls: [] });
  });

  it('of one address or host name: that one', () => {
    expect(at('192.168.1.20')).toEqual({ lan: true, urls: ['http://192.168.1.20:8123'] });
    expect(at('fd12:3456::20')).toEqual({ lan: true, urls: ['http://[fd12:3456::20]:8123'] });
    expect(at('nas.home.arpa')).toEqual({ lan: true, urls: ['http://nas.home.arpa:8123'] });
  });

  it('of loopback or localhost: none, and not on the LAN', () => {
    for (const bind of ['127.0.0.1', '127.0.1.1', 'localhost', 'LOCALHOST', '::1', '[::1]', '::ffff:127.0.0.1']) {
      expect(at(bind), bind).toEqual({ lan: false, urls: [] });
    }
  });

  it('with a public base-url: that URL alone, whatever the binding', () => {
    for (const bind of ['127.0.0.1', '0.0.0.0']) {
      expect(at(bind, { baseUrl: 'https://files.example.org', baseUrlIsLocal: false })).toEqual({ lan: true, urls: ['https://files.example.org'] });
    }
  });
});
