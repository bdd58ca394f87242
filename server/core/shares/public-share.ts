/**
 * Access to a share by its publish id (`/open/share/{pid}` and its files and
 * ZIP). On every route: published, unexpired and the password matches. A
 * detail request also needs an unused view and counts one, atomically. File
 * and ZIP requests pass with the share cookie of a viewed share; without it
 * they need the password (when the share has one) and an unused view, and
 * count nothing.
 */
import { sql, type Kysely } from 'kysely';
import type { Clock } from '../../common/clock.js';
import { AppError, notFound } from '../../common/errors.js';
import type { Logger } from '../../common/log.js';
import type { Database } from '../../db/schema.js';
import { verifyPassword } from '../auth/password-hash.js';
import type { RateLimiter } from '../auth/rate-limiter.js';
import type { ShareCookieSigner } from './share-cookie.js';
import { findPublishById, findShare, type PublishRecord, type ShareRecord } from './share.repository.js';

export interface PublicCredentials {
  /** the `Service-Password` header, already percent-decoded */
  password: string | undefined;
  /** the share cookie sent with the request */
  cookie: string | undefined;
  /** the client address, for the password rate limit */
  address: string;
}

export interface PublicAccess {
  share: ShareRecord;
  publish: PublishRecord;
}

export interface PublicDeps {
  db: Kysely<Database>;
  clock: Clock;
  limiter: RateLimiter;
  signer: ShareCookieSigner;
  log: Logger;
}

const rateKey = (address: string) => `share-password:${address}`;

const checkPassword = async (d: PublicDeps, pid: string, share: ShareRecord, creds: PublicCredentials): Promise<void> => {
  if (share.passwordHash === null) return;
  if (creds.password === undefined) throw new AppError('password-required', 'This share requires a password.');
  const wait = d.limiter.blockedFor(rateKey(creds.address));
  if (wait > 0) {
    throw new AppError('rate-limited', 'Too many wrong share passwords. Try again later.', { retryAfterSeconds: wait });
  }
  if (!(await verifyPassword(creds.password, share.passwordHash))) {
    d.limiter.fail(rateKey(creds.address));
    d.log.warn('Password challenge failure for a public share', { publishId: pid, address: creds.address });
    throw new AppError('password-wrong', 'The password is wrong.');
  }
};

/** Counts one view unless the views are used up meanwhile; false when none was left. */
const countView = async (d: PublicDeps, p: PublishRecord, now: number): Promise<boolean> => {
  const res = await d.db
    .updateTable('publish_shares')
    .set({ views: sql`views + 1`, last_access: now })
    .where('id', '=', p.id)
    .where('enabled', '=', 1)
    .where('publish_until', '>', now)
    .where('views', '<', (eb) => eb.selectFrom('shares').select('shares.max_views').whereRef('shares.id', '=', 'publish_shares.share_id'))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
};

/**
 * Anyone: checks the rules for a public share. `view` counts one view and
 * needs one left; `bytes` (file and ZIP) lets a valid share cookie stand in
 * for password and views. Throws 404 for unknown, unpublished, expired or
 * used-up shares, `password-required`, `password-wrong` or `rate-limited`.
 */
export const openPublicShare = async (
  d: PublicDeps,
  pid: string,
  creds: PublicCredentials,
  mode: 'view' | 'bytes',
): Promise<PublicAccess> => {
  const now = d.clock.now();
  const publish = await findPublishById(d.db, pid);
  const share = publish && (await findShare(d.db, publish.shareId));
  if (!publish || !share || !publish.enabled || publish.publishUntil <= now) {
    d.log.info('No public share with this id', { publishId: pid, address: creds.address });
    throw notFound('The share');
  }
  const cookieOk = d.signer.verify(creds.cookie, pid, share.passwordHash, now);
  if (mode === 'bytes' && cookieOk) return { share, publish };
  if (publish.views >= share.maxViews) throw notFound('The share');
  if (!cookieOk) await checkPassword(d, pid, share, creds);
  if (mode === 'view') {
    if (!(await countView(d, publish, now))) throw notFound('The share');
    return { share, publish: { ...publish, views: publish.views + 1, lastAccess: now } };
  }
  return { share, publish };
};

/** The cookie value and lifetime after a successful view: valid until the share expires. */
export const shareCookieFor = (d: PublicDeps, a: PublicAccess): { value: string; maxAgeMs: number } => ({
  value: d.signer.sign(a.publish.id, a.share.passwordHash, a.publish.publishUntil),
  maxAgeMs: Math.max(0, a.publish.publishUntil - d.clock.now()),
});
