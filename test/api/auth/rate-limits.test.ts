/**
 * Rate limits on login and share-password attempts.
 *
 * Regression: the limit was checked before an attempt and counted only after
 * its (slow) password check, so a parallel burst passed the check all at once:
 * 600 login guesses and 300 share-password guesses were all checked against a
 * limit of 10 per minute. The key was the client address alone, so everyone
 * behind one proxy shared one budget, and an unknown login answered at once
 * while a wrong password cost a scrypt hash, which told which accounts exist.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../server/common/clock.js';
import { publish, shareWithFiles } from '../../support/share-fixtures.js';
import { ADMIN, startServer, type TestServer } from '../../support/server.js';

const LOGIN = '/api/v2/open/auth/login';

/** A request that comes through the trusted proxy on 127.0.0.1 from client `address`. */
const from = (address: string) => ({ headers: { 'X-Forwarded-For': address } });

describe('parallel bursts', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ config: { limits: { connections: 2000, 'connections-per-address': 2000 } } });
  });
  afterAll(() => s.stop());

  it('600 parallel login guesses: at most the limit (10) are checked, the rest get 429 with Retry-After', async () => {
    const results = await Promise.all(
      Array.from({ length: 600 }, (_, i) => s.request('POST', LOGIN, { account: 'admin', password: `guess-${i}` })),
    );
    const checked = results.filter((r) => r.status === 200);
    const limited = results.filter((r) => r.status === 429);
    expect(checked.length).toBeLessThanOrEqual(10);
    expect(checked.every((r) => r.body['success'] === false)).toBe(true);
    expect(limited.length).toBe(600 - checked.length);
    expect(Number(limited[0]!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(s.logs().match(/Authentication attempt failure for username admin/g)?.length ?? 0).toBeLessThanOrEqual(10);
  });

  it('300 parallel share-password guesses: at most the limit (10) are checked, the rest get 429', async () => {
    const t = await startServer({ config: { limits: { connections: 2000, 'connections-per-address': 2000 } } });
    try {
      const token = await t.login(ADMIN.login, ADMIN.password);
      const { id } = await shareWithFiles(t, token, [], { password: 'the-right-one', maxViews: 1000 });
      const pid = await publish(t, token, id);
      const results = await Promise.all(
        Array.from({ length: 300 }, (_, i) =>
          t.request('GET', `/api/v2/open/share/${pid}`, undefined, { headers: { 'Service-Password': `guess-${i}` } }),
        ),
      );
      const checked = results.filter((r) => r.status === 403);
      expect(checked.length).toBeLessThanOrEqual(10);
      expect(results.filter((r) => r.status === 429).length).toBe(300 - checked.length);
    } finally {
      await t.stop();
    }
  });
});

describe('keys: client address and login', () => {
  const clock = manualClock(Date.UTC(2031, 0, 1));
  let s: TestServer;
  let admin: string;
  beforeAll(async () => {
    s = await startServer({
      clock,
      config: { 'trusted-proxies': ['127.0.0.1'], 'rate-limit': { 'login-failures': 3, 'share-password-failures': 3, 'all-addresses': 5, window: '1 minute' } },
    });
    admin = await s.login(ADMIN.login, ADMIN.password);
    await s.request('POST', '/api/v2/admin/account', { login: 'owner', state: 'Active', admin: false, password: 'owner-password' }, { token: admin });
  });
  afterAll(() => s.stop());

  const login = (account: string, password: string, address: string) => s.request('POST', LOGIN, { account, password }, from(address));

  it('an attacker at one address is blocked, but cannot lock out the owner at another address', async () => {
    for (let i = 0; i < 3; i++) expect((await login('owner', `wrong-${i}`, '203.0.113.1')).status).toBe(200);
    const blocked = await login('owner', 'owner-password', '203.0.113.1');
    expect(blocked.status).toBe(429);
    // other logins from the attacker's address are blocked too (one address guessing many accounts)
    expect((await login('admin', 'x', '203.0.113.1')).status).toBe(429);
    const owner = await login('owner', 'owner-password', '198.51.100.7');
    expect(owner.status).toBe(200);
    expect(owner.body['success']).toBe(true);
    clock.advance(61_000);
  });

  it('people behind one trusted proxy have their own budgets', async () => {
    for (let i = 0; i < 3; i++) await login('owner', `wrong-${i}`, '192.0.2.10');
    expect((await login('owner', 'wrong', '192.0.2.10')).status).toBe(429);
    expect((await login('admin', ADMIN.password, '192.0.2.11')).body['success']).toBe(true);
    clock.advance(61_000);
  });

  // Regression: the limits keyed on the full address, and a login was limited
  // only for addresses that had failed on it: 200 addresses made 200 guesses a
  // minute at one account, and an IPv6 host has 2^64 addresses.
  it('distributed guessing on one login: no number of addresses gets more than all-addresses guesses; the owner\'s own address still gets in', async () => {
    // the owner signed in from home before
    expect((await login('owner', 'owner-password', '10.9.9.9')).body['success']).toBe(true);
    const results = [];
    for (let i = 1; i <= 200; i++) results.push((await login('owner', `wrong-${i}`, i % 2 ? `10.1.${i >> 8}.${i & 255}` : `2001:db8:${i}::1`)).status);
    expect(results.filter((st) => st === 200)).toHaveLength(5);
    expect(results.filter((st) => st === 429)).toHaveLength(195);
    expect(s.logs().match(/Authentication attempt failure for username owner/g)?.length ?? 0).toBeLessThanOrEqual(5 + 3 * 2 + 2);
    // a new address is held back with the guessers, even with the right password
    const stranger = await login('owner', 'owner-password', '10.7.7.7');
    expect(stranger.status).toBe(429);
    expect(Number(stranger.headers.get('retry-after'))).toBeGreaterThan(0);
    // the owner at home still signs in
    expect((await login('owner', 'owner-password', '10.9.9.9')).body['success']).toBe(true);
    // another login is not affected by this login's count
    expect((await login('admin', ADMIN.password, '10.2.0.1')).body['success']).toBe(true);
    clock.advance(61_000);
    expect((await login('owner', 'owner-password', '10.1.0.1')).body['success']).toBe(true);
    clock.advance(61_000);
  });

  it('an IPv6 host is one address: its whole /64 shares one budget', async () => {
    for (let i = 1; i <= 3; i++) expect((await login('owner', `wrong-${i}`, `2001:db8:77:1::${i.toString(16)}`)).status).toBe(200);
    expect((await login('owner', 'wrong', '2001:db8:77:1:ffff:ffff:ffff:ffff')).status).toBe(429);
    expect((await login('admin', 'x', '2001:db8:77:1::abcd')).status).toBe(429);
    // the next /64 is another host
    expect((await login('admin', ADMIN.password, '2001:db8:77:2::1')).body['success']).toBe(true);
    clock.advance(61_000);
  });

  it('share passwords: keyed by client address and share', async () => {
    const one = await publish(s, admin, (await shareWithFiles(s, admin, [], { password: 'share-one', maxViews: 100 })).id);
    const two = await publish(s, admin, (await shareWithFiles(s, admin, [], { password: 'share-two', maxViews: 100 })).id);
    const open = (pid: string, pw: string, address: string) =>
      s.request('GET', `/api/v2/open/share/${pid}`, undefined, { headers: { 'Service-Password': pw, 'X-Forwarded-For': address } });
    for (let i = 0; i < 3; i++) expect((await open(one, `wrong-${i}`, '203.0.113.50')).status).toBe(403);
    expect((await open(one, 'share-one', '203.0.113.50')).status).toBe(429);
    expect((await open(two, 'share-two', '203.0.113.50')).status).toBe(429);
    // another recipient of the same share is not locked out by the guesser
    expect((await open(one, 'share-one', '203.0.113.51')).status).toBe(200);
    clock.advance(61_000);
    // distributed guessing on one share: all-addresses guesses in all, then only addresses that opened it before
    expect((await open(two, 'share-two', '10.3.0.99')).status).toBe(200);
    for (let i = 1; i <= 5; i++) expect((await open(two, 'wrong', `10.3.0.${i}`)).status).toBe(403);
    for (let i = 6; i <= 30; i++) expect((await open(two, 'wrong', `10.3.0.${i}`)).status).toBe(429);
    expect((await open(two, 'share-two', '10.3.0.1')).status).toBe(429);
    expect((await open(two, 'share-two', '10.3.0.99')).status).toBe(200);
    clock.advance(61_000);
  });

  it('a success does not reset the failures of its address (no resetting the budget with an own account)', async () => {
    for (let i = 0; i < 2; i++) await login('owner', `wrong-${i}`, '203.0.113.9');
    expect((await login('admin', ADMIN.password, '203.0.113.9')).body['success']).toBe(true);
    expect((await login('owner', 'wrong-3', '203.0.113.9')).status).toBe(200);
    expect((await login('owner', 'wrong-4', '203.0.113.9')).status).toBe(429);
    clock.advance(61_000);
  });
});

describe('unknown logins', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ config: { 'rate-limit': { enabled: false } } });
  });
  afterAll(() => s.stop());

  const timed = async (account: string): Promise<number> => {
    const started = process.hrtime.bigint();
    const res = await s.request('POST', LOGIN, { account, password: 'not-the-password' });
    expect(res.body['success']).toBe(false);
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

  it('cost the time of a wrong password (a scrypt hash against a dummy), so timing tells no account apart', async () => {
    await timed('admin');
    await timed('nobody-here');
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 9; i++) {
      known.push(await timed('admin'));
      unknown.push(await timed(`nobody-${i}`));
    }
    // a wrong password costs one scrypt hash (tens of ms); an unknown login must cost it as well
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.6);
  });
});
