import { describe, expect, it } from 'vitest';
import { manualClock } from '../../../server/common/clock.js';
import { hashPassword, secretEquals, verifyPassword } from '../../../server/core/auth/password-hash.js';
import { createMemoryHitStore } from '../../../server/core/auth/hit-store.repository.js';
import { createRateLimiter } from '../../../server/core/auth/rate-limiter.js';
import { createTokenService } from '../../../server/core/auth/token.js';
import { SignJWT } from 'jose';

describe('password hashes', () => {
  it('are salted scrypt hashes that verify only the right password', async () => {
    const a = await hashPassword('correct horse');
    const b = await hashPassword('correct horse');
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('correct horse', a)).toBe(true);
    expect(await verifyPassword('correct horsE', a)).toBe(false);
    expect(await verifyPassword('', '')).toBe(false);
    expect(await verifyPassword('x', null)).toBe(false);
    expect(await verifyPassword('x', 'scrypt$1$2$3$bad$')).toBe(false);
  });

  it('compares configured secrets exactly', () => {
    expect(secretEquals('abc', 'abc')).toBe(true);
    expect(secretEquals('abc', 'abd')).toBe(false);
    expect(secretEquals('abc', 'abcd')).toBe(false);
  });
});

describe('tokens', () => {
  const secret = new Uint8Array(32).fill(7);
  const lifetimes = { sessionValidMs: 60_000, sessionMaxMs: 3_600_000 };

  it('carry the claims, expire after session-valid, and need the same secret', async () => {
    const clock = manualClock(1_800_000_000_000);
    const tokens = createTokenService(secret, lifetimes, clock);
    const claims = { accountId: 'id1', login: 'ann', admin: true, generation: 3, loginAt: clock.now(), sessionId: 's1' };
    const { token, validMs } = (await tokens.issue(claims))!;
    expect(validMs).toBe(60_000);
    expect(await tokens.verify(token)).toEqual(claims);
    expect(await createTokenService(new Uint8Array(32).fill(8), lifetimes, clock).verify(token)).toBeUndefined();
    const [h, , sig] = token.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify({ sub: 'id1', login: 'ann', admin: true, gen: 3, auth_time: 1, exp: 9e9 })).toString('base64url')}.${sig}`;
    expect(await tokens.verify(forged)).toBeUndefined();
    clock.advance(61_000);
    expect(await tokens.verify(token)).toBeUndefined();
  });

  // Regression: renewal issued a fresh token of full lifetime each time, so a
  // session renewed in time lasted for ever. A token carries its login time and
  // is never valid beyond session-max after it.
  it('never outlive session-max after the login, however often they are renewed', async () => {
    const clock = manualClock(1_800_000_000_000);
    const tokens = createTokenService(secret, lifetimes, clock);
    const claims = { accountId: 'id1', login: 'ann', admin: false, generation: 0, loginAt: clock.now(), sessionId: 's1' };
    clock.advance(3_600_000 - 20_000);
    const last = (await tokens.issue(claims))!;
    expect(last.validMs).toBe(20_000);
    expect((await tokens.verify(last.token))?.loginAt).toBe(claims.loginAt);
    clock.advance(20_000);
    expect(await tokens.verify(last.token)).toBeUndefined();
    expect(await tokens.issue(claims)).toBeUndefined();
  });

  it('are refused without a session generation or login time (tokens of older versions)', async () => {
    const old = await new SignJWT({ login: 'ann', admin: true })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('id1')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(secret);
    expect(await createTokenService(secret, lifetimes, manualClock(Date.now())).verify(old)).toBeUndefined();
  });
});

describe('the rate limiter', () => {
  const limiter = (o: { limit: number; allAddresses?: number; enabled?: boolean; clock?: ReturnType<typeof manualClock>; maxKeys?: number }) => {
    const clock = o.clock ?? manualClock(0);
    return createRateLimiter({
      enabled: o.enabled ?? true,
      limit: o.limit,
      allAddresses: o.allAddresses ?? 100,
      windowMs: 60_000,
      rememberMs: 3_600_000,
      name: 'login',
      store: createMemoryHitStore(clock, o.maxKeys),
      clock,
    });
  };

  // Regression: the limit was checked before an attempt and the failure counted
  // after its slow check, so parallel attempts all passed the check.
  it('counts an attempt before it is checked, so a burst is cut at the limit', async () => {
    const rl = limiter({ limit: 3 });
    const burst = await Promise.all(Array.from({ length: 50 }, () => rl.attempt('1.2.3.4', 'ann')));
    expect(burst.filter((a) => a.allowed).length).toBeLessThanOrEqual(3);
    const refused = burst.find((a) => !a.allowed);
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: 60 });
  });

  it('frees an address when the window passes; a success refunds only its own attempt', async () => {
    const clock = manualClock(0);
    const rl = limiter({ limit: 3, clock });
    await rl.attempt('a', 'ann');
    clock.advance(10_000);
    await rl.attempt('a', 'bob');
    const ok = await rl.attempt('a', 'cid');
    expect(ok.allowed).toBe(true);
    if (ok.allowed) await ok.succeeded();
    expect((await rl.attempt('a', 'dan')).allowed).toBe(true);
    expect(await rl.attempt('a', 'dan')).toEqual({ allowed: false, retryAfterSeconds: 50 });
    clock.advance(50_001);
    expect((await rl.attempt('a', 'dan')).allowed).toBe(true);
  });

  // Regression: 200 addresses made 200 guesses a minute at one account, and an
  // IPv6 host has a /64 of addresses to guess from.
  it('holds a limit per subject that no number of addresses bypasses, except for addresses where it succeeded', async () => {
    const rl = limiter({ limit: 2, allAddresses: 3 });
    const home = await rl.attempt('192.0.2.1', 'ann');
    if (home.allowed) await home.succeeded();
    for (const address of ['x1', 'x2', 'x3']) expect((await rl.attempt(address, 'ann')).allowed).toBe(true);
    for (let i = 0; i < 20; i++) expect((await rl.attempt(`10.0.0.${i}`, 'ann')).allowed).toBe(false);
    expect((await rl.attempt('x1', 'bob')).allowed).toBe(true);
    expect((await rl.attempt('192.0.2.1', 'ann')).allowed).toBe(true);
    // keys stay apart whatever the parts hold
    expect((await rl.attempt('x1", "ann', 'z')).allowed).toBe(true);
  });

  it('counts an IPv6 /64 as one address', async () => {
    const rl = limiter({ limit: 2 });
    expect((await rl.attempt('2001:db8:1:2::1', 'ann')).allowed).toBe(true);
    expect((await rl.attempt('2001:db8:1:2:ffff:1:2:3', 'bob')).allowed).toBe(true);
    expect((await rl.attempt('2001:db8:1:2::99', 'cid')).allowed).toBe(false);
    expect((await rl.attempt('2001:db8:1:3::1', 'cid')).allowed).toBe(true);
  });

  it('keeps memory bounded under a flood of addresses', async () => {
    const rl = limiter({ limit: 1, maxKeys: 100 });
    for (let i = 0; i < 10_000; i++) await rl.attempt(`10.0.${i >> 8}.${i & 255}`, `s${i}`);
    expect((await rl.attempt('new', 'ann')).allowed).toBe(true);
  });

  it('never blocks when disabled', async () => {
    const rl = limiter({ limit: 1, enabled: false });
    for (let i = 0; i < 5; i++) expect((await rl.attempt('a', 'ann')).allowed).toBe(true);
  });
});
