/**
 * The addresses the hosted server answers on: this computer, and every LAN address
 * (IPv4, non-internal) when it listens on the LAN.
 */
import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';
import type { ServerAddress } from '../preload/desktop-api.js';
import { LOCAL_HOST } from './server-config.js';

export type Interfaces = NodeJS.Dict<NetworkInterfaceInfo[]>;

/** Every IPv4, non-internal address with its interface name, in interface order, without duplicates. */
export const lanIPv4 = (interfaces: Interfaces = networkInterfaces()): { name: string; address: string }[] => {
  const out: { name: string; address: string }[] = [];
  const seen = new Set<string>();
  for (const [name, infos] of Object.entries(interfaces)) {
    for (const info of infos ?? []) {
      // Node 18.0-18.3 reported the family as a number; accept both
      const v4 = info.family === 'IPv4' || (info.family as unknown) === 4;
      if (!v4 || info.internal || seen.has(info.address)) continue;
      // link-local addresses (no DHCP answer) are not reachable from other machines in practice
      if (info.address.startsWith('169.254.')) continue;
      seen.add(info.address);
      out.push({ name, address: info.address });
    }
  }
  return out;
};

/** The local URL first, then one per LAN address when the server listens on the LAN. */
export const serverAddresses = (port: number, lan: boolean, interfaces?: Interfaces): ServerAddress[] => [
  { name: 'localhost', url: `http://${LOCAL_HOST}:${port}` },
  ...(lan ? lanIPv4(interfaces).map(({ name, address }) => ({ name, url: `http://${address}:${port}` })) : []),
];

/** The address to give other devices: the first LAN address, or `null` when there is none (or LAN is off). */
export const lanUrl = (port: number, lan: boolean, interfaces?: Interfaces): string | null =>
  serverAddresses(port, lan, interfaces)[1]?.url ?? null;
