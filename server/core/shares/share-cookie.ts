/**
 * The cookie a browser gets after viewing a public share: proof that it
 * passed the share's checks and was counted, so its file and ZIP requests
 * and later visits need neither the password again nor an unused view. The
 * value is `<expires>.<mac>`, where the MAC (HMAC-SHA256 with a key derived
 * from the server secret) covers the publication (see {@link publicationKey}),
 * the expiry and the share's stored password hash: the cookie is useless for
 * another share, dies with unpublish and republish, and dies when the owner
 * changes the password. It never contains the password.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

export interface ShareCookieSigner {
  sign(publication: string, passwordHash: string | null, expires: number): string;
  verify(value: string | undefined, publication: string, passwordHash: string | null, now: number): boolean;
}

export const SHARE_COOKIE = 'service_share';

/**
 * What a cookie is bound to: the publish id and the date its publication
 * began. Publishing again (after an unpublish, or to re-date the share) sets
 * a new date even when it keeps the publish id, so earlier cookies stop
 * matching.
 */
export const publicationKey = (p: { id: string; publishDate: number }): string => `${p.id}\n${p.publishDate}`;

export const createShareCookieSigner = (serverSecret: Uint8Array): ShareCookieSigner => {
  const key = Buffer.from(hkdfSync('sha256', serverSecret, Buffer.alloc(0), 'pier/public-share-cookie/v2', 32));
  const mac = (publication: string, passwordHash: string | null, expires: number): Buffer =>
    createHmac('sha256', key).update(`${publication}\n${expires}\n${passwordHash ?? ''}`).digest();
  return {
    sign: (publication, passwordHash, expires) => `${expires}.${mac(publication, passwordHash, expires).toString('base64url')}`,
    verify(value, publication, passwordHash, now) {
      const m = value ? /^(\d{1,16})\.([A-Za-z0-9_-]{43})$/.exec(value) : null;
      if (!m) return false;
      const expires = Number(m[1]);
      if (!(expires > now)) return false;
      const given = Buffer.from(m[2]!, 'base64url');
      const expected = mac(publication, passwordHash, expires);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
};
