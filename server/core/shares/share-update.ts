/**
 * The owner's changes to a share: name, description, validity, max views,
 * password, publish and unpublish. Every function first checks that the
 * accessor may manage the share (404 otherwise) and answers the API's
 * messages; rule violations are `success: false` results.
 */
import type { Kysely } from 'kysely';
import type { Clock } from '../../common/clock.js';
import { cleanDisplayName } from '../../common/display-name.js';
import { formatDuration } from '../../common/durations.js';
import { randomId } from '../../common/ids.js';
import { fail, ok, type BasicResult } from '../../common/result.js';
import type { Database } from '../../db/schema.js';
import { hashPassword } from '../auth/password-hash.js';
import type { Accessor } from './accessor.js';
import { requireShareAccess } from './share-access.js';
import { checkDescriptionLength, type ShareRules } from './share-create.js';
import { disablePublish, findPublishOfShare, insertPublish, republish, setPublishUntil } from './publish.repository.js';
import { findValidity, lockShare, updateShare } from './share.repository.js';

type Db = Kysely<Database>;

export interface UpdateDeps {
  db: Db;
  clock: Clock;
  rules: ShareRules;
}

/** Sets the name, cleaned (`cleanDisplayName`); null, or nothing left after cleaning, removes it. */
export const setShareName = async (d: UpdateDeps, a: Accessor, shareId: string, raw: string | null): Promise<BasicResult> => {
  await requireShareAccess(d.db, a, shareId);
  const name = cleanDisplayName(raw ?? '') || null;
  await updateShare(d.db, shareId, { name });
  return name ? ok('share.name-updated', 'Name updated.') : ok('share.name-deleted', 'Name deleted.');
};

/** Sets the raw description (markdown with mustache file references); '' removes it; `bad-request` when too long. */
export const setShareDescription = async (d: UpdateDeps, a: Accessor, shareId: string, text: string): Promise<BasicResult> => {
  checkDescriptionLength(text, d.rules);
  await requireShareAccess(d.db, a, shareId);
  await updateShare(d.db, shareId, { description: text || null });
  return ok('share.description-updated', 'Description updated.');
};

/**
 * Sets the validity (ms), within `max-validity`. A published share then stays
 * published until its publish date plus the new validity.
 */
export const setShareValidity = async (d: UpdateDeps, a: Accessor, shareId: string, validity: number): Promise<BasicResult> => {
  await requireShareAccess(d.db, a, shareId);
  if (validity > d.rules.maxValidity) return fail('share.validity-exceeded', `Maximum validity (${formatDuration(d.rules.maxValidity)}) exceeded`);
  await d.db.transaction().execute(async (tx) => {
    await updateShare(tx, shareId, { validity });
    const p = await findPublishOfShare(tx, shareId);
    if (p?.enabled) await setPublishUntil(tx, p.id, p.publishDate + validity);
  });
  return ok('share.validity-updated', 'Validity updated.');
};

/** Sets the number of views a public share allows (at least 1, checked by the API schema). */
export const setShareMaxViews = async (d: UpdateDeps, a: Accessor, shareId: string, maxViews: number): Promise<BasicResult> => {
  await requireShareAccess(d.db, a, shareId);
  await updateShare(d.db, shareId, { maxViews });
  return ok('share.max-views-updated', 'Max. views updated.');
};

/**
 * Sets the password; null or '' removes it, which `require-share-password`
 * refuses.
 */
export const setSharePassword = async (d: UpdateDeps, a: Accessor, shareId: string, password: string | null): Promise<BasicResult> => {
  await requireShareAccess(d.db, a, shareId);
  if (!password) {
    if (d.rules.requireSharePassword) return fail('share.password-mandatory', 'Password cannot be removed when password protection is required.');
    await updateShare(d.db, shareId, { passwordHash: null });
    return ok('share.password-deleted', 'Password deleted.');
  }
  await updateShare(d.db, shareId, { passwordHash: await hashPassword(password) });
  return ok('share.password-updated', 'Password updated.');
};

/**
 * Publishes the share until now + validity. The first publish creates a new
 * random publish id; publishing again re-dates it and keeps the id unless
 * `reuseId` is false. Views are never reset. Publishes of one share at once
 * run one after the other (the share row's lock), and a new id replaces only
 * the one the request found when it came: publishes that found the share with
 * the same (or no) publication end with one publication and one id.
 */
export const publishShare = async (d: UpdateDeps, a: Accessor, shareId: string, reuseId: boolean): Promise<BasicResult> => {
  await requireShareAccess(d.db, a, shareId);
  const seen = await findPublishOfShare(d.db, shareId);
  const now = d.clock.now();
  await d.db.transaction().execute(async (tx) => {
    await lockShare(tx, shareId);
    const until = now + (await findValidity(tx, shareId));
    const existing = await findPublishOfShare(tx, shareId);
    if (!existing) {
      await insertPublish(tx, shareId, now, until);
      return;
    }
    const newId = !reuseId && existing.id === seen?.id;
    await republish(tx, shareId, newId ? randomId() : existing.id, now, until);
  });
  return ok('share.published', 'Share published.');
};

/** Unpublishes; the publish id and views are kept for a later publish. */
export const unpublishShare = async (d: UpdateDeps, a: Accessor, shareId: string): Promise<BasicResult> => {
  await requireShareAccess(d.db, a, shareId);
  await disablePublish(d.db, shareId);
  return ok('share.unpublished', 'Share unpublished.');
};
