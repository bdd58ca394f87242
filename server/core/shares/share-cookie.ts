/**
 * The cookie a browser gets after viewing a public share: proof that it
 * passed the share's checks, so its file and ZIP requests need neither the
 * password again nor an unused view. The value is `<expires>.<mac>`, where the
 * MAC (HMAC-SHA256 with a key derived from the server secret) covers the
 * publish id, the expiry and the share's stored password hash: the cookie is
 * useless for another share and dies when the owner changes the password. It
 * never contains the password.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

export interface ShareCookieSigner {
  sign(publishId: string, passwordHash: string | null, expires: number): string;
  verify(value: string | undefined, publishId: string, passwordHash: string | null, now: number): boolean;
}

export const SHARE_COOKIE = 'service_share';

export const createShareCookieSigner = (serverSecret: Uint8Array): ShareCookieSigner => {
  const key = Buffer.from(hkdfSync('sha256', serverSecret, Buffer.alloc(0), 'pier/public-share-cookie/v1', 32));
  const mac = (publishId: string, passwordHash: string | null, expires: number): Buffer =>
    createHmac('sha256', key).update(`${publishId}\n${expires}\n${passwordHash ?? ''}`).digest();
  return {
    sign: (publishId, passwordHash, expires) => `${expires}.${mac(publishId, passwordHash, expires).toString('base64url')}`,
    verify(value, publishId, passwordHash, now) {
      const m = value ? /^(\d{1,16})\.([A-Za-z0-9_-]{43})$/.exec(value) : null;
      if (!m) return false;
      const expires = Number(m[1]);
      if (!(expires > now)) return false;
      const given = Buffer.from(m[2]!, 'base64url');
      const expected = mac(publishId, passwordHash, expires);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
};
