import type { Kysely } from 'kysely';
import type { Clock } from '../../common/clock.js';
import { formatDuration } from '../../common/durations.js';
import { randomId } from '../../common/ids.js';
import { failId, okId, type IdResult } from '../../common/result.js';
import type { Database } from '../../db/schema.js';
import { hashPassword } from '../auth/password-hash.js';
import { ownerOf, type Accessor } from './accessor.js';

/** The seed's `ShareProperties` (validity in ms). */
export interface ShareProperties {
  name: string | null;
  validity: number;
  description: string | null;
  maxViews: number;
  password: string | null;
}

export interface ShareRules {
  maxValidity: number;
  requireSharePassword: boolean;
}

/**
 * Checks the contract's rules for a new share and gives the row values, or
 * the business failure to answer. A guest's share takes the alias' validity;
 * the password requirement applies to signed-in users only; an empty password
 * means none.
 */
export const checkNewShare = (
  a: Accessor,
  props: ShareProperties,
  rules: ShareRules,
): { ok: true; validity: number; password: string | null } | { ok: false; result: IdResult } => {
  const validity = a.kind === 'alias' ? a.validity : props.validity;
  if (validity > rules.maxValidity) {
    return { ok: false, result: failId(`Maximum validity (${formatDuration(rules.maxValidity)}) exceeded`) };
  }
  const password = props.password ? props.password : null;
  if (a.kind === 'user' && rules.requireSharePassword && !password) {
    return { ok: false, result: failId('A password is required for this share.') };
  }
  return { ok: true, validity, password };
};

/**
 * Signed-in users and guests (through their alias): creates an empty share
 * owned by the accessor's account, after `checkNewShare`. Pass a transaction
 * as `db` to make the share part of a larger all-or-nothing step.
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
  await db
    .insertInto('shares')
    .values({
      id,
      account_id: ownerOf(a),
      alias_id: a.kind === 'alias' ? a.aliasId : null,
      name: props.name || null,
      validity: checked.validity,
      max_views: props.maxViews,
      password: checked.password === null ? null : await hashPassword(checked.password),
      description: props.description || null,
      created: clock.now(),
    })
    .execute();
  return okId(id, 'Share created.');
};
