/** IP addresses and CIDR ranges, as configured for `trusted-proxies`. */
import { BlockList, isIP } from 'node:net';

/** `::ffff:10.0.0.1` → `10.0.0.1`, so IPv4 clients on dual-stack sockets match IPv4 rules. */
export const plainAddress = (address: string): string => {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return m ? m[1]! : address;
};

/**
 * Parses address ranges (`10.0.0.1`, `10.0.0.0/8`, `::1`, `fd00::/8`).
 * Throws an `Error` naming the first entry that is neither.
 */
export const parseIpRanges = (entries: readonly string[]): BlockList => {
  const list = new BlockList();
  for (const entry of entries) {
    const [addr = '', bits, extra] = entry.trim().split('/');
    const family = isIP(addr);
    const prefix = bits === undefined ? undefined : Number(bits);
    const max = family === 6 ? 128 : 32;
    if (family === 0 || extra !== undefined || (prefix !== undefined && !(Number.isInteger(prefix) && prefix >= 0 && prefix <= max))) {
      throw new Error(`not an IP address or CIDR range: ${JSON.stringify(entry)}`);
    }
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(addr, type);
    else list.addSubnet(addr, prefix, type);
  }
  return list;
};

/** True when `address` (IPv4, IPv6 or IPv4-mapped) lies in `list`. */
export const inRanges = (list: BlockList, address: string | undefined): boolean => {
  if (!address) return false;
  const plain = plainAddress(address);
  const family = isIP(plain);
  return family !== 0 && list.check(plain, family === 6 ? 'ipv6' : 'ipv4');
};

