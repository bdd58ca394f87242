import type { Kysely } from 'kysely';
import { notFound } from '../../common/errors.js';
import type { Database } from '../../db/schema.js';
import type { Accessor } from './accessor.js';
import { canAccessShare } from './share.repository.js';

/** Throws `not-found` unless the accessor may see and manage the share. */
export const requireShareAccess = async (db: Kysely<Database>, a: Accessor, shareId: string): Promise<void> => {
  if (!(await canAccessShare(db, a, shareId))) throw notFound('The share');
};
