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


/** The eight groups of an IPv6 address (without zone), as numbers; undefined when it is not one. */
const ipv6Groups = (address: string): number[] | undefined => {
  const plain = address.split('%')[0]!;
  if (isIP(plain) !== 6) return undefined;
  let text = plain;
  // an embedded IPv4 tail (`::ffff:1.2.3.4`, `64:ff9b::1.2.3.4`) as two groups
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const part = (s: string) => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const front = part(head);
  const back = tail === undefined ? [] : part(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
};

/**
 * The key a client address is counted under by rate limits: an IPv4 address
 * as it is (IPv4-mapped ones too), an IPv6 address as its /64 network, since
 * one IPv6 host is usually given a whole /64 and may use any address in it.
 * Anything else is returned as it is.
 */
export const addressGroup = (address: string): string => {
  const plain = plainAddress(address);
  const groups = ipv6Groups(plain);
  if (!groups) return plain;
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64`;
};
