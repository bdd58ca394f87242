import { describe, expect, it } from 'vitest';
import { manualClock } from '../../../server/common/clock.js';
import { hashPassword, secretEquals, verifyPassword } from '../../../server/core/auth/password-hash.js';
import { createRateLimiter } from '../../../server/core/auth/rate-limiter.js';
import { createTokenService } from '../../../server/core/auth/token.js';

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
  it('carry the claims, expire after session-valid, and need the same secret', async () => {
    const clock = manualClock(1_800_000_000_000);
    const secret = new Uint8Array(32).fill(7);
    const tokens = createTokenService(secret, 60_000, clock);
    const { token, validMs } = await tokens.issue({ accountId: 'id1', login: 'ann', admin: true });
    expect(validMs).toBe(60_000);
    expect(await tokens.verify(token)).toEqual({ accountId: 'id1', login: 'ann', admin: true });
    expect(await createTokenService(new Uint8Array(32).fill(8), 60_000, clock).verify(token)).toBeUndefined();
    const [h, , sig] = token.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify({ sub: 'id1', login: 'ann', admin: true, exp: 9e9 })).toString('base64url')}.${sig}`;
    expect(await tokens.verify(forged)).toBeUndefined();
    clock.advance(61_000);
    expect(await tokens.verify(token)).toBeUndefined();
  });
});

describe('the rate limiter', () => {
  it('blocks a key after `limit` failures within the window and frees it afterwards', () => {
    const clock = manualClock(0);
    const rl = createRateLimiter({ enabled: true, limit: 3, windowMs: 60_000, clock });
    rl.fail('a');
    clock.advance(10_000);
    rl.fail('a');
    expect(rl.blockedFor('a')).toBe(0);
    rl.fail('a');
    expect(rl.blockedFor('a')).toBe(50);
    expect(rl.blockedFor('b')).toBe(0);
    clock.advance(50_001);
    expect(rl.blockedFor('a')).toBe(0);
    rl.fail('a');
    rl.reset('a');
    expect(rl.blockedFor('a')).toBe(0);
  });

  it('never blocks when disabled', () => {
    const rl = createRateLimiter({ enabled: false, limit: 1, windowMs: 60_000, clock: manualClock(0) });
    rl.fail('a');
    rl.fail('a');
    expect(rl.blockedFor('a')).toBe(0);
  });
});
