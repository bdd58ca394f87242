import { describe, expect, it } from 'vitest';
import { manualClock } from '../../../server/common/clock.js';
import { hashPassword, secretEquals, verifyPassword } from '../../../server/core/auth/password-hash.js';
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
  // Regression: the limit was checked before an attempt and the failure counted
  // after its slow check, so parallel attempts all passed the check.
  it('counts an attempt when it is allowed, so a burst is cut at the limit', () => {
    const clock = manualClock(0);
    const rl = createRateLimiter({ enabled: true, limit: 3, windowMs: 60_000, clock });
    const burst = Array.from({ length: 50 }, () => rl.attempt('1.2.3.4', 'ann'));
    expect(burst.filter((a) => a.allowed)).toHaveLength(3);
    const refused = burst.find((a) => !a.allowed);
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: 60 });
  });

  it('frees an address when the window passes; a success refunds only its own attempt', () => {
    const clock = manualClock(0);
    const rl = createRateLimiter({ enabled: true, limit: 3, windowMs: 60_000, clock });
    rl.attempt('a', 'ann');
    clock.advance(10_000);
    rl.attempt('a', 'bob');
    const ok = rl.attempt('a', 'cid');
    expect(ok.allowed).toBe(true);
    if (ok.allowed) ok.succeeded();
    expect(rl.attempt('a', 'dan').allowed).toBe(true);
    expect(rl.attempt('a', 'dan')).toEqual({ allowed: false, retryAfterSeconds: 50 });
    clock.advance(50_001);
    expect(rl.attempt('a', 'dan').allowed).toBe(true);
  });

  it('limits a subject only for addresses that failed on it', () => {
    const clock = manualClock(0);
    const rl = createRateLimiter({ enabled: true, limit: 2, windowMs: 60_000, clock });
    for (const address of ['x1', 'x2', 'x3']) expect(rl.attempt(address, 'ann').allowed).toBe(true);
    expect(rl.attempt('x1', 'ann').allowed).toBe(false);
    expect(rl.attempt('x1', 'bob').allowed).toBe(true);
    expect(rl.attempt('owner-home', 'ann').allowed).toBe(true);
    // keys stay apart whatever the parts hold
    expect(rl.attempt('x1", "ann', 'z').allowed).toBe(true);
  });

  it('keeps memory bounded under a flood of addresses', () => {
    const rl = createRateLimiter({ enabled: true, limit: 1, windowMs: 60_000, clock: manualClock(0), maxKeys: 100 });
    for (let i = 0; i < 10_000; i++) rl.attempt(`10.0.${i >> 8}.${i & 255}`, 'ann');
    expect(rl.attempt('new', 'ann').allowed).toBe(true);
  });

  it('never blocks when disabled', () => {
    const rl = createRateLimiter({ enabled: false, limit: 1, windowMs: 60_000, clock: manualClock(0) });
    for (let i = 0; i < 5; i++) expect(rl.attempt('a', 'ann').allowed).toBe(true);
  });
});
