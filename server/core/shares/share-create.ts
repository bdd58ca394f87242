import type { Kysely } from 'kysely';
import type { Clock } from '../../common/clock.js';
import { cleanDisplayName } from '../../common/display-name.js';
import { formatDuration } from '../../common/durations.js';
import { randomId } from '../../common/ids.js';
import { AppError, badRequest } from '../../common/errors.js';
import { failId, okId, type IdResult } from '../../common/result.js';
import type { Database } from '../../db/schema.js';
import { hashPassword } from '../auth/password-hash.js';
import { lockAlias } from '../aliases/alias.repository.js';
import { cleanSender } from '../aliases/guest-share-name.js';
import { ownerOf, type Accessor } from './accessor.js';
import { allowanceShares, insertShare, setGuestKey } from './share.repository.js';

/** The API's `ShareProperties` (validity in ms). */
export interface ShareProperties {
  name: string | null;
  validity: number;
  description: string | null;
  maxViews: number;
  password: string | null;
  /** guests only: the name they typed (see `cleanSender`) */
  sender?: string | null;
}

export interface ShareRules {
  maxValidity: number;
  requireSharePassword: boolean;
  /** shares with bytes guests may create through one alias within an hour */
  sharesPerAliasPerHour: number;
  /** shares one guest (address) may create through one alias within an hour, empty ones included */
  sharesPerGuestPerHour: number;
  /** characters a description may have */
  descriptionLength: number;
}

/** `bad-request` naming `description` when the text is longer than the rules allow. */
export const checkDescriptionLength = (text: string | null, rules: Pick<ShareRules, 'descriptionLength'>): void => {
  if (text && text.length > rules.descriptionLength) {
    throw badRequest('description', `The description may have at most ${rules.descriptionLength} characters.`);
  }
};

const HOUR = 60 * 60 * 1000;

/**
 * Checks the contract's rules for a new share and gives the row values, or
 * the business failure to answer. A guest's share takes the alias' validity;
 * the password requirement applies to signed-in users only; an empty password
 * means none. A description over the length limit is `bad-request`.
 */
export const checkNewShare = (
  a: Accessor,
  props: ShareProperties,
  rules: ShareRules,
): { ok: true; validity: number; password: string | null } | { ok: false; result: IdResult } => {
  checkDescriptionLength(props.description, rules);
  const validity = a.kind === 'alias' ? a.validity : props.validity;
  if (validity > rules.maxValidity) {
    return { ok: false, result: failId('share.validity-exceeded', `Maximum validity (${formatDuration(rules.maxValidity)}) exceeded`) };
  }
  const password = props.password ? props.password : null;
  if (a.kind === 'user' && rules.requireSharePassword && !password) {
    return { ok: false, result: failId('share.password-mandatory', 'A password is required for this share.') };
  }
  return { ok: true, validity, password };
};

/**
 * Signed-in users and guests (through their alias): creates an empty share
 * owned by the accessor's account, after `checkNewShare`. A guest gets
 * `rate-limited` beyond the alias' shares per hour (shares that received a
 * byte: empty ones spend nobody's allowance but their guest's) or beyond its
 * own shares per hour through the alias (all of them); the counts and the
 * insert run under a lock of the alias row, so parallel requests on any
 * server cannot pass them together.
 */
export const createShare = async (
  db: Kysely<Database>,
  clock: Clock,
  a: Accessor,
  props: ShareProperties,
  rules: ShareRules,
): Promise<IdResult> => {
  const checked = checkNewShare(a, props, rules);
  if (!checked.ok) return checked.result;
  const id = randomId();
  const sender = a.kind === 'alias' ? cleanSender(props.sender) : null;
  const password = checked.password === null ? null : await hashPassword(checked.password);
  const insert = (q: Kysely<Database>, now: number) =>
    insertShare(q, {
      id,
      accountId: ownerOf(a),
      aliasId: a.kind === 'alias' ? a.aliasId : null,
      name: cleanDisplayName(props.name ?? '') || null,
      validity: checked.validity,
      maxViews: props.maxViews,
      passwordHash: password,
      description: props.description || null,
      created: now,
      sender,
    });
  if (a.kind === 'user') {
    await insert(db, clock.now());
    return okId(id, 'share.created', 'Share created.');
  }
  await db.transaction().execute(async (trx) => {
    const now = clock.now();
    await lockAlias(trx, a.aliasId);
    const recent = await allowanceShares(trx, a.aliasId, a.guestKey, now - HOUR);
    const retryAfterSeconds = (oldest: number) => Math.max(1, Math.ceil((oldest + HOUR - now) / 1000));
    if (recent.guest.count >= rules.sharesPerGuestPerHour) {
      throw new AppError('rate-limited', 'You have sent too many uploads through this link in the last hour. Try again later.', {
        retryAfterSeconds: retryAfterSeconds(recent.guest.oldest),
        reason: 'alias.too-many-uploads',
      });
    }
    if (recent.link.count >= rules.sharesPerAliasPerHour) {
      throw new AppError('rate-limited', 'This upload link has received too many uploads in the last hour. Try again later.', {
        retryAfterSeconds: retryAfterSeconds(recent.link.oldest),
        reason: 'alias.too-many-uploads',
      });
    }
    await insert(trx, now);
    await setGuestKey(trx, id, a.guestKey);
  });
  return okId(id, 'share.created', 'Share created.');
};
