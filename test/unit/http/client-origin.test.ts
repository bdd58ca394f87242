import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { parseIpRanges } from '../../../server/common/ip-ranges.js';
import { createClientOrigin } from '../../../server/http/client-origin.js';

const req = (peer: string, headers: Record<string, string> = {}): IncomingMessage =>
  ({ socket: { remoteAddress: peer }, headers }) as unknown as IncomingMessage;

describe('the client address', () => {
  it('is the socket peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    const origin = createClientOrigin([]);
    const r = req('192.168.1.20', { 'x-forwarded-for': '10.9.9.9', 'x-forwarded-host': 'evil.example' });
    expect(origin.clientAddress(r)).toBe('192.168.1.20');
    expect(origin.fromTrustedProxy(r)).toBe(false);
    expect(origin.forwarded(r, 'x-forwarded-host')).toBeUndefined();
  });

  it('comes from X-Forwarded-For only through a trusted proxy, skipping trusted hops from the right', () => {
    const origin = createClientOrigin(['10.0.0.0/8', '::1']);
    expect(origin.clientAddress(req('::ffff:10.0.0.5', { 'x-forwarded-for': '6.6.6.6, 203.0.113.7, 10.1.1.1' }))).toBe('203.0.113.7');
    expect(origin.clientAddress(req('::1', { 'x-forwarded-for': '198.51.100.2' }))).toBe('198.51.100.2');
    expect(origin.forwarded(req('10.2.3.4', { 'x-forwarded-host': 'pier.example, other' }), 'x-forwarded-host')).toBe('pier.example');
    // a peer outside the list is the client, even with the header
    expect(origin.clientAddress(req('192.168.1.20', { 'x-forwarded-for': '198.51.100.2' }))).toBe('192.168.1.20');
    // garbage in the header never becomes the address
    expect(origin.clientAddress(req('10.0.0.5', { 'x-forwarded-for': 'not-an-ip' }))).toBe('10.0.0.5');
  });

  it('refuses entries that are no address or range', () => {
    expect(() => parseIpRanges(['10.0.0.0/33'])).toThrow(/10.0.0.0\/33/);
    expect(() => parseIpRanges(['proxy.lan'])).toThrow(/proxy.lan/);
    expect(() => parseIpRanges(['fd00::/8', '127.0.0.1'])).not.toThrow();
  });
});
