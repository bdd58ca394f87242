/**
 * Alias rows and their members. Plain functions taking `db` (or a
 * transaction) first, so one transaction spans several of them.
 */
import type { Kysely, Selectable } from 'kysely';
import { randomId } from '../../common/ids.js';
import { fromBool, toBool, type AliasTable, type Database } from '../../db/schema.js';
import { containsIgnoreCase } from '../../db/sql-helpers.js';
import type { AccountLight, AliasRecipient, AliasRecord } from './alias.types.js';

type Db = Kysely<Database>;

const aliasWithOwner = (db: Db) =>
  db
    .selectFrom('aliases')
    .innerJoin('accounts', 'accounts.id', 'aliases.account_id')
    .selectAll('aliases')
    .select(['accounts.login as owner_login', 'accounts.state as owner_state']);

type AliasRow = Selectable<AliasTable> & { owner_login: string; owner_state: string };

/** Counts come back as strings from some drivers. */
const numberOrNull = (v: number | string | null): number | null => (v === null ? null : Number(v));

const toAlias = (r: AliasRow): AliasRecord => ({
  id: r.id,
  ownerId: r.account_id,
  ownerLogin: r.owner_login,
  ownerActive: r.owner_state === 'Active',
  name: r.name,
  validity: Number(r.validity),
  enabled: toBool(r.enabled),
  created: Number(r.created),
  message: r.message,
  maxSize: numberOrNull(r.max_size),
  expires: numberOrNull(r.expires),
});

export const findAlias = async (db: Db, id: string): Promise<AliasRecord | undefined> => {
  const row = await aliasWithOwner(db).where('aliases.id', '=', id).executeTakeFirst();
  return row && toAlias(row);
};

export const aliasExists = async (db: Db, id: string): Promise<boolean> =>
  (await db.selectFrom('aliases').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;

/**
 * Whether `id` cannot be given to an alias of `accountId`: an alias has it, or
 * it is the retired id of a link another account owned.
 */
export const aliasIdTaken = async (db: Db, id: string, accountId: string): Promise<boolean> => {
  if (await aliasExists(db, id)) return true;
  const retired = await db.selectFrom('retired_alias_ids').select('account_id').where('id', '=', id).executeTakeFirst();
  return retired !== undefined && retired.account_id !== accountId;
};

/** Reserves the id of a link that goes away (deleted or renamed) for its owner. Run inside a transaction. */
const retireAliasId = async (db: Db, id: string, accountId: string, now: number): Promise<void> => {
  const known = await db.selectFrom('retired_alias_ids').select('id').where('id', '=', id).executeTakeFirst();
  if (!known) await db.insertInto('retired_alias_ids').values({ id, account_id: accountId, retired: now }).execute();
};

/** Aliases owned by `accountId` or having it as a member, `q` matching the name, by name. */
export const listVisibleAliases = async (db: Db, accountId: string, q: string, limit: number): Promise<AliasRecord[]> => {
  let query = aliasWithOwner(db).where((eb) =>
    eb.or([
      eb('aliases.account_id', '=', accountId),
      eb('aliases.id', 'in', eb.selectFrom('alias_members').select('alias_members.alias_id').where('alias_members.account_id', '=', accountId)),
    ]),
  );
  if (q) query = query.where(containsIgnoreCase('aliases.name', q));
  const rows = await query.orderBy('aliases.name').orderBy('aliases.created', 'desc').limit(limit).execute();
  return rows.map(toAlias);
};

/** How many members an alias has. */
export const memberCount = async (db: Db, aliasId: string): Promise<number> => {
  const row = await db
    .selectFrom('alias_members')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('alias_id', '=', aliasId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
};

/** The members of each alias, by login. */
export const membersOf = async (db: Db, aliasIds: string[]): Promise<Map<string, AccountLight[]>> => {
  const byAlias = new Map<string, AccountLight[]>(aliasIds.map((id) => [id, []]));
  if (!aliasIds.length) return byAlias;
  const rows = await db
    .selectFrom('alias_members')
    .innerJoin('accounts', 'accounts.id', 'alias_members.account_id')
    .select(['alias_members.alias_id', 'accounts.id', 'accounts.login'])
    .where('alias_members.alias_id', 'in', aliasIds)
    .orderBy('accounts.login')
    .execute();
  for (const r of rows) byAlias.get(r.alias_id)?.push({ id: r.id, login: r.login });
  return byAlias;
};

export const isMember = async (db: Db, aliasId: string, accountId: string): Promise<boolean> =>
  (await db
    .selectFrom('alias_members')
    .select('id')
    .where('alias_id', '=', aliasId)
    .where('account_id', '=', accountId)
    .executeTakeFirst()) !== undefined;

/** The ids among `ids` that are no account. */
export const unknownAccounts = async (db: Db, ids: string[]): Promise<string[]> => {
  if (!ids.length) return [];
  const found = new Set((await db.selectFrom('accounts').select('id').where('id', 'in', ids).execute()).map((r) => r.id));
  return ids.filter((id) => !found.has(id));
};

export interface AliasValues {
  name: string;
  validity: number;
  enabled: boolean;
  message: string | null;
  maxSize: number | null;
  expires: number | null;
}

const columns = (v: AliasValues) => ({
  name: v.name,
  validity: v.validity,
  enabled: fromBool(v.enabled),
  message: v.message,
  max_size: v.maxSize,
  expires: v.expires,
});

/**
 * Locks the alias row for the rest of the transaction (an UPDATE that changes
 * nothing: a row lock on PostgreSQL and MariaDB, the write lock on SQLite), so
 * transactions that count what came through one alias run one after the other.
 */
export const lockAlias = async (db: Db, aliasId: string): Promise<void> => {
  await db.updateTable('aliases').set((eb) => ({ account_id: eb.ref('account_id') })).where('id', '=', aliasId).execute();
};

export const insertAlias = async (db: Db, id: string, ownerId: string, v: AliasValues, created: number): Promise<void> => {
  await db
    .insertInto('aliases')
    .values({ id, account_id: ownerId, created, ...columns(v) })
    .execute();
};

export const updateAlias = async (db: Db, id: string, v: AliasValues): Promise<void> => {
  await db.updateTable('aliases').set(columns(v)).where('id', '=', id).execute();
};

/**
 * Gives an alias a new id: a new row, then its members and shares follow, then
 * the old row goes. Run inside a transaction.
 */
export const moveAlias = async (db: Db, from: AliasRecord, to: string, v: AliasValues, now: number): Promise<void> => {
  await retireAliasId(db, from.id, from.ownerId, now);
  await insertAlias(db, to, from.ownerId, v, from.created);
  await db.updateTable('alias_members').set({ alias_id: to }).where('alias_id', '=', from.id).execute();
  await db.updateTable('shares').set({ alias_id: to }).where('alias_id', '=', from.id).execute();
  await db.deleteFrom('aliases').where('id', '=', from.id).execute();
};

/** Replaces the member list of an alias. Run inside a transaction. */
export const replaceMembers = async (db: Db, aliasId: string, accountIds: string[]): Promise<void> => {
  await db.deleteFrom('alias_members').where('alias_id', '=', aliasId).execute();
  if (!accountIds.length) return;
  await db
    .insertInto('alias_members')
    .values(accountIds.map((accountId) => ({ id: randomId(), alias_id: aliasId, account_id: accountId })))
    .execute();
};

/**
 * Deletes an alias; its shares stay and lose the link, its id stays its
 * owner's. Explicit rather than left to the foreign keys, so every database
 * does the same. Run inside a transaction.
 */
export const deleteAlias = async (db: Db, id: string, ownerId: string, now: number): Promise<void> => {
  await retireAliasId(db, id, ownerId, now);
  await db.updateTable('shares').set({ alias_id: null }).where('alias_id', '=', id).execute();
  await db.deleteFrom('alias_members').where('alias_id', '=', id).execute();
  await db.deleteFrom('aliases').where('id', '=', id).execute();
};

/** Every account except `exceptId`, `q` matching the login, by login. */
export const searchOtherAccounts = async (db: Db, exceptId: string, q: string, limit: number): Promise<AccountLight[]> => {
  let query = db.selectFrom('accounts').select(['id', 'login']).where('id', '<>', exceptId);
  if (q) query = query.where(containsIgnoreCase('login', q));
  return query.orderBy('login').limit(limit).execute();
};

/** The owner and the members of an alias with their e-mail, owner first. */
export const aliasRecipients = async (db: Db, aliasId: string): Promise<AliasRecipient[]> => {
  const owner = await db
    .selectFrom('aliases')
    .innerJoin('accounts', 'accounts.id', 'aliases.account_id')
    .select(['accounts.id', 'accounts.login', 'accounts.email'])
    .where('aliases.id', '=', aliasId)
    .executeTakeFirst();
  if (!owner) return [];
  const members = await db
    .selectFrom('alias_members')
    .innerJoin('accounts', 'accounts.id', 'alias_members.account_id')
    .select(['accounts.id', 'accounts.login', 'accounts.email'])
    .where('alias_members.alias_id', '=', aliasId)
    .orderBy('accounts.login')
    .execute();
  return [
    { accountId: owner.id, login: owner.login, email: owner.email, owner: true },
    ...members.filter((m) => m.id !== owner.id).map((m) => ({ accountId: m.id, login: m.login, email: m.email, owner: false })),
  ];
};
