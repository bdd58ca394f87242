import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

type Db = Kysely<Database>;

export const insertInvitation = async (db: Db, id: string, created: number): Promise<void> => {
  await db.insertInto('invitations').values({ id, created }).execute();
};

/** Deletes the key if it was created after `notBefore`; true when this call consumed it. */
export const consumeInvitation = async (db: Db, id: string, notBefore: number): Promise<boolean> => {
  const res = await db.deleteFrom('invitations').where('id', '=', id).where('created', '>=', notBefore).executeTakeFirst();
  return Number(res.numDeletedRows) === 1;
};

/** Removes keys created before `before`; returns how many. */
export const deleteInvitationsBefore = async (db: Db, before: number): Promise<number> => {
  const res = await db.deleteFrom('invitations').where('created', '<', before).executeTakeFirst();
  return Number(res.numDeletedRows);
};
