/**
 * The hourly allowance of an upload link: per guest address as well as per
 * link, and shares that never received a byte do not spend the link's.
 *
 * Regression: one guest closed an upload link for an hour with 30 empty
 * shares, which spent the link's whole hourly allowance.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../server/common/clock.js';
import { startServer, type TestServer } from '../../support/server.js';
import { bytes, createAlias, createUser, guest, guestTusUpload, type Result } from './support.js';

describe('the allowance of an upload link', () => {
  const clock = manualClock(Date.UTC(2031, 0, 1));
  let s: TestServer;
  let aliasId: string;
  beforeAll(async () => {
    s = await startServer({
      clock,
      config: {
        'trusted-proxies': ['127.0.0.1'],
        limits: { 'shares-per-alias-per-hour': 3, 'shares-per-guest-per-hour': 5 },
        backend: { auth: { 'session-valid': '30 days', 'session-max': '30 days' } },
      },
    });
    aliasId = await createAlias(s, await createUser(s, 'alice'));
  });
  afterAll(() => s.stop());

  const newShare = (address: string) =>
    s.request<Result>('POST', '/api/v2/alias/upload/new', { validity: 0, maxViews: 10 }, { headers: { ...guest(aliasId), 'X-Forwarded-For': address } });

  it('one guest with empty shares spends its own allowance, not the link\'s', async () => {
    const statuses = [];
    for (let i = 0; i < 30; i++) statuses.push((await newShare('203.0.113.1')).status);
    expect(statuses.filter((st) => st === 200)).toHaveLength(5);
    expect(statuses.filter((st) => st === 429)).toHaveLength(25);
    const refused = await newShare('203.0.113.1');
    expect(refused.body).toMatchObject({ success: false, code: 'alias.too-many-uploads' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // an IPv6 host is its /64
    for (let i = 1; i <= 5; i++) expect((await newShare(`2001:db8:7:7::${i}`)).status).toBe(200);
    expect((await newShare('2001:db8:7:7:abcd::1')).status).toBe(429);
    // other guests still send
    const other = await newShare('198.51.100.2');
    expect(other.status).toBe(200);
    await guestTusUpload(s, aliasId, other.body.id!, bytes(10), 'a.bin');
  });

  it('the link\'s allowance counts shares that received bytes', async () => {
    for (const address of ['198.51.100.3', '198.51.100.4']) {
      const r = await newShare(address);
      expect(r.status).toBe(200);
      await guestTusUpload(s, aliasId, r.body.id!, bytes(10), 'b.bin');
    }
    // three shares with bytes in the hour: the link takes no more
    const closed = await newShare('198.51.100.5');
    expect(closed.status).toBe(429);
    expect(closed.body).toMatchObject({ code: 'alias.too-many-uploads' });
    clock.advance(3_600_001);
    expect((await newShare('198.51.100.5')).status).toBe(200);
    expect((await newShare('203.0.113.1')).status).toBe(200);
  });
});
