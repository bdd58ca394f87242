/**
 * The cookie a browser gets after viewing a public share: proof that it
 * passed the share's checks and was counted, so its file and ZIP requests
 * and later visits need neither the password again nor an unused view. The
 * value is `<expires>.<mac>`, where the MAC (HMAC-SHA256 with a key derived
 * from the server secret) covers the publication (see {@link publicationKey}),
 * the expiry and the share's stored password hash: the cookie is useless for
 * another share, dies with unpublish and republish, and dies when the owner
 * changes the password. It never contains the password.
 *
 * A recipient's cookie also carries its recipient number (1, 2, … per share,
 * for the owner's activity log), covered by the MAC: `<expires>.<n>.<mac>`.
 * The cookie of the owner or a member (who is nobody's recipient) has none.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

export interface ShareCookieSigner {
  /** `recipient` 0: the cookie of the owner or a member */
  sign(publication: string, passwordHash: string | null, expires: number, recipient?: number): string;
  verify(value: string | undefined, publication: string, passwordHash: string | null, now: number): boolean;
  /** The recipient number of a valid cookie (0 for the owner's or a member's), null when it is not valid. */
  recipient(value: string | undefined, publication: string, passwordHash: string | null, now: number): number | null;
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
  const mac = (publication: string, passwordHash: string | null, expires: number, recipient: number): Buffer =>
    createHmac('sha256', key)
      .update(`${publication}\n${expires}\n${passwordHash ?? ''}${recipient > 0 ? `\n${recipient}` : ''}`)
      .digest();
  const recipient = (value: string | undefined, publication: string, passwordHash: string | null, now: number): number | null => {
    const m = value ? /^(\d{1,16})\.(?:([1-9]\d{0,8})\.)?([A-Za-z0-9_-]{43})$/.exec(value) : null;
    if (!m) return null;
    const expires = Number(m[1]);
    if (!(expires > now)) return null;
    const n = m[2] === undefined ? 0 : Number(m[2]);
    const given = Buffer.from(m[3]!, 'base64url');
    const expected = mac(publication, passwordHash, expires, n);
    return given.length === expected.length && timingSafeEqual(given, expected) ? n : null;
  };
  return {
    sign: (publication, passwordHash, expires, n = 0) =>
      `${expires}.${n > 0 ? `${n}.` : ''}${mac(publication, passwordHash, expires, n).toString('base64url')}`,
    verify: (value, publication, passwordHash, now) => recipient(value, publication, passwordHash, now) !== null,
    recipient,
  };
};
