import type { Kysely } from 'kysely';
import { notFound } from '../../common/errors.js';
import type { Database } from '../../db/schema.js';
import type { Accessor } from './accessor.js';

type Db = Kysely<Database>;

/**
 * The ids of the shares an accessor may see and manage, as a subquery
 * condition: a user's own shares and the shares uploaded through aliases the
 * user is a member of; for a guest, only the shares of that alias.
 */
export const accessibleShares = (db: Db, a: Accessor) => {
  if (a.kind === 'alias') {
    return db.selectFrom('shares').select('shares.id').where('shares.alias_id', '=', a.aliasId).where('shares.account_id', '=', a.ownerId);
  }
  return db
    .selectFrom('shares')
    .select('shares.id')
    .where((eb) =>
      eb.or([
        eb('shares.account_id', '=', a.accountId),
        eb(
          'shares.alias_id',
          'in',
          eb.selectFrom('alias_members').select('alias_members.alias_id').where('alias_members.account_id', '=', a.accountId),
        ),
      ]),
    );
};

/** Whether the accessor may see and manage the share. */
export const canAccessShare = async (db: Db, a: Accessor, shareId: string): Promise<boolean> => {
  const row = await accessibleShares(db, a).where('shares.id', '=', shareId).executeTakeFirst();
  return row !== undefined;
};

/** Throws `not-found` unless the accessor may see and manage the share. */
export const requireShareAccess = async (db: Db, a: Accessor, shareId: string): Promise<void> => {
  if (!(await canAccessShare(db, a, shareId))) throw notFound('The share');
};
