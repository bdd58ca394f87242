/**
 * Access to a share by its publish id (`/open/share/{pid}` and its files and
 * ZIP). On every route: published and unexpired. A request with the share
 * cookie of this publication passes without password and views and counts
 * nothing (a view is one recipient, however many range requests its browser
 * makes). Any other request needs the password (when the share has one) and
 * an unused view, and counts one, atomically: of parallel requests for the
 * last view exactly one passes. The signed-in owner and members of the alias
 * the share came through never count one.
 */
import type { Kysely } from 'kysely';
import type { Clock } from '../../common/clock.js';
import { AppError, notFound } from '../../common/errors.js';
import type { Logger } from '../../common/log.js';
import type { Database } from '../../db/schema.js';
import { verifyPassword } from '../auth/password-hash.js';
import type { RateLimiter } from '../auth/rate-limiter.js';
import type { Accessor } from './accessor.js';
import { isPreviewAgent } from '../activity/preview-agent.js';
import { nextRecipient } from '../activity/activity.repository.js';
import { publicationKey, type ShareCookieSigner } from './share-cookie.js';
import { countView, findPublishById, type PublishRecord } from './publish.repository.js';
import { canAccessShare, findShare, type ShareRecord } from './share.repository.js';

export interface PublicCredentials {
  /** the `Service-Password` header, already percent-decoded */
  password: string | undefined;
  /** the share cookie sent with the request */
  cookie: string | undefined;
  /** the client address, for the password rate limit */
  address: string;
  /** the signed-in user sending the request, if any: the owner and alias members count no view */
  viewer?: Accessor | undefined;
  /** the request's User-Agent: link-preview fetchers are refused (see `isPreviewAgent`) */
  userAgent?: string | undefined;
}

export interface PublicAccess {
  share: ShareRecord;
  publish: PublishRecord;
  /** the share cookie to set for the browser, so it counts no further view; null when it sent a valid one */
  cookie: ShareCookie | null;
  /** the recipient number for the activity log; null for the owner and members, whose requests are not logged */
  recipient: number | null;
  /** whether this request counted a view */
  counted: boolean;
}

export interface ShareCookie {
  value: string;
  maxAgeMs: number;
}

export interface PublicDeps {
  db: Kysely<Database>;
  clock: Clock;
  limiter: RateLimiter;
  signer: ShareCookieSigner;
  log: Logger;
}

/**
 * Why a publish id cannot be opened: no such publication (never, deleted, or
 * published again under a new id), unpublished, expired, or all its views
 * used. Publish ids are random, so naming the reason tells a guesser nothing.
 */
export const shareUnavailableReasons = ['share.unknown', 'share.unpublished', 'share.expired', 'share.used-up'] as const;
export type ShareUnavailableReason = (typeof shareUnavailableReasons)[number];

/** A `not-found` that knows why; the detail route sends the reason, the file and ZIP routes a plain 404. */
export class ShareUnavailable extends AppError {
  constructor(readonly why: ShareUnavailableReason) {
    super('not-found', notFound('The share').message);
  }
}

/** The reason a share cannot be opened now, or null when it can; `views` says whether used-up views count. */
export const unavailableReason = (
  publish: PublishRecord | undefined,
  share: ShareRecord | undefined,
  now: number,
  views: boolean,
): ShareUnavailableReason | null => {
  if (!publish || !share) return 'share.unknown';
  if (!publish.enabled) return 'share.unpublished';
  if (publish.publishUntil <= now) return 'share.expired';
  if (views && publish.views >= share.maxViews) return 'share.used-up';
  return null;
};

const checkPassword = async (d: PublicDeps, pid: string, share: ShareRecord, creds: PublicCredentials): Promise<void> => {
  if (share.passwordHash === null) return;
  if (creds.password === undefined) throw new AppError('password-required', 'This share requires a password.');
  // counted before the check, per client address and per share (see RateLimiter.attempt)
  const attempt = await d.limiter.attempt(creds.address, share.id);
  if (!attempt.allowed) {
    throw new AppError('rate-limited', 'Too many wrong share passwords. Try again later.', { retryAfterSeconds: attempt.retryAfterSeconds, reason: 'share.too-many-passwords' });
  }
  if (!(await verifyPassword(creds.password, share.passwordHash))) {
    d.log.warn('Password challenge failure for a public share', { publishId: pid, address: creds.address });
    throw new AppError('password-wrong', 'The password is wrong.');
  }
  await attempt.succeeded();
};

/**
 * Anyone: checks the rules for a public share (detail, file and ZIP alike).
 * Link-preview fetchers are refused first (`forbidden`): a preview is not a
 * recipient and never uses up a view; the page gives them its Open Graph tags.
 * A valid share cookie of this publication stands in for password and views;
 * otherwise the password must match and a view must be left, and one is
 * counted unless the viewer is the signed-in owner or an alias member; a
 * counted view numbers a new recipient, whom the cookie names from then on.
 * Throws {@link ShareUnavailable} (404) for unknown, unpublished, expired or
 * used-up shares, `password-required`, `password-wrong` or `rate-limited`.
 */
export const openPublicShare = async (d: PublicDeps, pid: string, creds: PublicCredentials): Promise<PublicAccess> => {
  if (isPreviewAgent(creds.userAgent)) throw new AppError('forbidden', 'Link previews do not open shares.');
  const now = d.clock.now();
  const publish = await findPublishById(d.db, pid);
  const share = publish && (await findShare(d.db, publish.shareId));
  const gone = unavailableReason(publish, share, now, false);
  if (gone || !publish || !share) {
    d.log.info('No public share with this id', { publishId: pid, address: creds.address, reason: gone });
    throw new ShareUnavailable(gone ?? 'share.unknown');
  }
  const isMember = async () => creds.viewer !== undefined && (await canAccessShare(d.db, creds.viewer, share.id));
  const known = d.signer.recipient(creds.cookie, publicationKey(publish), share.passwordHash, now);
  if (known !== null) return { share, publish, cookie: null, recipient: known > 0 && !(await isMember()) ? known : null, counted: false };
  if (publish.views >= share.maxViews) throw new ShareUnavailable('share.used-up');
  await checkPassword(d, pid, share, creds);
  if (await isMember()) return { share, publish, cookie: shareCookieFor(d, { share, publish }, 0), recipient: null, counted: false };
  if (!(await countView(d.db, publish, now))) throw new ShareUnavailable(await reasonNow(d, pid));
  const counted = { ...publish, views: publish.views + 1, lastAccess: now };
  const recipient = (await nextRecipient(d.db, share.id)) ?? 0;
  return { share, publish: counted, cookie: shareCookieFor(d, { share, publish: counted }, recipient), recipient: recipient || null, counted: true };
};

/** Why a view could not be counted: the share changed meanwhile (unpublished, expired, republished) or, mostly, its last view went to another request. */
const reasonNow = async (d: PublicDeps, pid: string): Promise<ShareUnavailableReason> => {
  const publish = await findPublishById(d.db, pid);
  const share = publish && (await findShare(d.db, publish.shareId));
  return unavailableReason(publish, share, d.clock.now(), true) ?? 'share.used-up';
};

/** The cookie value and lifetime for a request that passed: valid for this publication until the share expires. */
export const shareCookieFor = (d: PublicDeps, a: { share: ShareRecord; publish: PublishRecord }, recipient: number): ShareCookie => ({
  value: d.signer.sign(publicationKey(a.publish), a.share.passwordHash, a.publish.publishUntil, recipient),
  maxAgeMs: Math.max(0, a.publish.publishUntil - d.clock.now()),
});
