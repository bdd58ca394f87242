import { isIP } from 'node:net';
import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';
import { inRanges, parseIpRanges, plainAddress } from '../../common/ip-ranges.js';

/** What a phone on the LAN can open (`GET /sec/info/addresses`). */
export interface Addresses {
  /** true when other machines can reach the server (it listens beyond this computer, or `base-url` is public) */
  lan: boolean;
  /** base URLs (`http://<address>:<port>`), the one to use first */
  urls: string[];
}

export interface AddressInput {
  /** `bind.address` */
  bindAddress: string;
  /** `base-url` and whether it points at this machine only */
  baseUrl: string;
  baseUrlIsLocal: boolean;
  /** the port the server listens on */
  port: number;
  interfaces?: NodeJS.Dict<NetworkInterfaceInfo[]>;
}

const loopback = parseIpRanges(['127.0.0.0/8', '::1/128']);
// the ranges home and office networks hand out, in the order a phone most likely shares
const preferred = [['192.168.0.0/16'], ['10.0.0.0/8'], ['172.16.0.0/12'], ['fc00::/7']].map(parseIpRanges);
const privateRanges = parseIpRanges(['192.168.0.0/16', '10.0.0.0/8', '172.16.0.0/12', 'fc00::/7']);
// neither private nor public: link-local, shared (carrier NAT), multicast, unspecified
const unusable = parseIpRanges(['169.254.0.0/16', '100.64.0.0/10', '224.0.0.0/3', '0.0.0.0/8', 'fe80::/10', 'ff00::/8', '::/128']);
/**
 * Interfaces of VPNs (WireGuard, OpenVPN, Tailscale, ZeroTier, IPsec, PPP),
 * containers and virtual machines (Docker, Podman, Kubernetes, libvirt,
 * VirtualBox, VMware, Hyper-V, WSL), by the names their software gives them:
 * their private addresses are no way for a phone on the LAN to reach this
 * machine.
 */
const virtualInterface =
  /^(docker|br-|veth|cni|flannel|cali|weave|kube|podman|lxcbr|lxdbr|virbr|vnet|vmnet|vboxnet|tun|tap|wg|tailscale|utun|zt|ppp|ipsec|gpd|nordlynx|proton)|virtualbox|vmware|vethernet|hyper-v|wsl|vpn/i;

const rank = (address: string): number => {
  const i = preferred.findIndex((list) => inRanges(list, address));
  return i === -1 ? preferred.length : i;
};

/**
 * The addresses of this machine's interfaces that a device on the LAN can
 * use: private IPv4 (and unique-local IPv6 when `ipv6`) of real interfaces,
 * 192.168/16 first, then 10/8, 172.16/12, IPv6 after every IPv4 address.
 * A machine on a network that hands out public addresses (campus and some
 * office networks) has no private one: then its public addresses are the way
 * in. Link-local addresses (they need an interface name a phone does not
 * know) and those of VPN, container and virtual-machine interfaces are left
 * out: a user would only learn of them, never reach the server there.
 */
const machineAddresses = (interfaces: NodeJS.Dict<NetworkInterfaceInfo[]>, ipv6: boolean): string[] => {
  const usable: string[] = [];
  for (const [name, list] of Object.entries(interfaces)) {
    if (virtualInterface.test(name)) continue;
    for (const info of list ?? []) {
      const family = isIP(info.address);
      if (info.internal || (family === 6 && !ipv6) || family === 0 || inRanges(unusable, info.address) || inRanges(loopback, info.address)) continue;
      if (!usable.includes(info.address)) usable.push(info.address);
    }
  }
  const privateOnes = usable.filter((a) => inRanges(privateRanges, a));
  const found = privateOnes.length > 0 ? privateOnes : usable;
  const family = (a: string) => (isIP(a) === 4 ? 0 : 1);
  // a stable sort keeps the interface order within a range
  return found.sort((a, b) => family(a) - family(b) || rank(a) - rank(b));
};

const hostOf = (address: string): string => (isIP(address) === 6 ? `[${address}]` : address);

/**
 * Signed-in users: the base URLs under which devices on the network reach this
 * server. A public `base-url` is the one answer. Otherwise by `bind.address`: a
 * wildcard (`0.0.0.0`; `::`, which also takes IPv6) gives the LAN addresses
 * of the machine's interfaces (the private ones, else the public ones); one
 * specific address or host name gives itself, whatever its range;
 * loopback or `localhost` gives none (`lan: false`).
 */
export const reachableAddresses = (input: AddressInput): Addresses => {
  if (!input.baseUrlIsLocal) return { lan: true, urls: [input.baseUrl] };
  const bind = input.bindAddress.trim().replace(/^\[(.*)\]$/, '$1').toLowerCase();
  const plain = plainAddress(bind);
  if (bind === 'localhost' || inRanges(loopback, plain)) return { lan: false, urls: [] };
  const url = (address: string) => `http://${hostOf(address)}:${input.port}`;
  // `::` (any spelling of the all-zero address) listens on IPv6 and IPv4; an empty host is the same to node:http
  const any6 = bind === '' || (isIP(bind) === 6 && /^[0:]+$/.test(bind));
  if (plain === '0.0.0.0' || any6) {
    const all = machineAddresses(input.interfaces ?? networkInterfaces(), any6);
    return { lan: true, urls: all.map(url) };
  }
  return { lan: true, urls: [url(plain)] };
};
