import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const scrypt = (password: string, salt: Buffer, keylen: number, opts: ScryptOptions): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    scryptCb(password, salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key)));
  });

const N = 16384;
const r = 8;
const p = 1;
const KEYLEN = 32;

/** An scrypt hash as `scrypt$N$r$p$<salt b64>$<hash b64>`. */
export const hashPassword = async (password: string): Promise<string> => {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEYLEN, { N, r, p });
  return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
};

let dummyHash: Promise<string> | undefined;

/**
 * Spends the time of one password check against a hash no password matches
 * (of 32 random bytes, made once per process), so that an unknown login, an
 * account without a password or a disabled one costs what a wrong password
 * costs, and timing does not tell which accounts exist.
 */
export const verifyNothing = async (password: string): Promise<false> => {
  dummyHash ??= hashPassword(randomBytes(32).toString('base64'));
  await verifyPassword(password, await dummyHash);
  return false;
};

/**
 * Compares in constant time. An empty or malformed stored hash never matches,
 * so accounts without an internal password cannot log in with one; it costs
 * the time of a real check all the same.
 */
export const verifyPassword = async (password: string, stored: string | null | undefined): Promise<boolean> => {
  const parts = (stored ?? '').split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return verifyNothing(password);
  const [, n, rr, pp, saltB64, hashB64] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(hashB64, 'base64');
  if (expected.length === 0) return verifyNothing(password);
  try {
    const key = await scrypt(password, Buffer.from(saltB64, 'base64'), expected.length, {
      N: Number(n),
      r: Number(rr),
      p: Number(pp),
      maxmem: 64 * 1024 * 1024,
    });
    return timingSafeEqual(key, expected);
  } catch {
    return false;
  }
};

/** Constant-time comparison of two configured secrets (the invite password). */
export const secretEquals = (a: string, b: string): boolean => {
  const ba = Buffer.from(a, 'utf8');
  const bb = Buffer.from(b, 'utf8');
  return ba.length === bb.length && timingSafeEqual(ba, bb);
};
