import type { CompiledQuery, InferResult, Kysely, Selectable } from 'kysely';
import { fromBool, toBool, type AccountTable, type Database } from '../../db/schema.js';
import { containsIgnoreCase } from '../../db/sql-helpers.js';
import { parseAccountState, type Account, type AccountDetail } from './account.types.js';

type Db = Kysely<Database>;
type AccountRow = Selectable<AccountTable>;

export const toAccount = (row: AccountRow): Account => ({
  id: row.id,
  login: row.login,
  source: row.source,
  state: parseAccountState(row.state) ?? 'Disabled',
  admin: toBool(row.admin),
  email: row.email,
  loginCount: Number(row.login_count),
  lastLogin: row.last_login === null ? null : Number(row.last_login),
  created: Number(row.created),
});

export interface NewAccount {
  id: string;
  login: string;
  source: string;
  state: 'Active' | 'Disabled';
  passwordHash: string;
  email: string | null;
  admin: boolean;
  created: number;
}

export const insertAccount = async (db: Db, a: NewAccount): Promise<void> => {
  await db
    .insertInto('accounts')
    .values({
      id: a.id,
      login: a.login.toLowerCase(),
      source: a.source,
      state: a.state,
      password: a.passwordHash,
      email: a.email,
      admin: fromBool(a.admin),
      login_count: 0,
      last_login: null,
      created: a.created,
    })
    .execute();
};

export const findAccountById = async (db: Db, id: string): Promise<Account | undefined> => {
  const row = await db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toAccount(row);
};

export const findAccountByLogin = async (db: Db, login: string): Promise<Account | undefined> => {
  const row = await db.selectFrom('accounts').selectAll().where('login', '=', login.toLowerCase()).executeTakeFirst();
  return row && toAccount(row);
};

/** The stored password hash of an account (`''` for accounts without one). */
export const findPasswordHash = async (db: Db, id: string): Promise<string | undefined> => {
  const row = await db.selectFrom('accounts').select('password').where('id', '=', id).executeTakeFirst();
  return row?.password;
};

const withShareCount = (db: Db) =>
  db
    .selectFrom('accounts')
    .selectAll('accounts')
    .select((eb) =>
      eb
        .selectFrom('shares')
        .select(eb.fn.countAll<number>().as('c'))
        .whereRef('shares.account_id', '=', 'accounts.id')
        .as('share_count'),
    );

const toDetail = (row: AccountRow & { share_count: number | string | null }): AccountDetail => ({
  ...toAccount(row),
  shares: Number(row.share_count ?? 0),
});

export const findAccountDetail = async (db: Db, id: string): Promise<AccountDetail | undefined> => {
  const row = await withShareCount(db).where('accounts.id', '=', id).executeTakeFirst();
  return row && toDetail(row);
};

/** Accounts whose login contains `q`, ordered by login, at most `limit`. */
export const searchAccounts = async (db: Db, q: string, limit: number): Promise<AccountDetail[]> => {
  let query = withShareCount(db);
  if (q) query = query.where(containsIgnoreCase('accounts.login', q));
  const rows = await query.orderBy('accounts.login').limit(limit).execute();
  return rows.map(toDetail);
};

/**
 * Changes the given columns. `endSessions` also bumps the session generation
 * in the same statement, so no token issued before the change stays valid.
 */
export const updateAccount = async (
  db: Db,
  id: string,
  changes: Partial<{ state: string; source: string; admin: boolean; email: string | null; passwordHash: string; endSessions: boolean }>,
): Promise<number> => {
  const values: Partial<Omit<AccountRow, 'session_gen'>> = {};
  if (changes.state !== undefined) values.state = changes.state;
  if (changes.source !== undefined) values.source = changes.source;
  if (changes.admin !== undefined) values.admin = fromBool(changes.admin);
  if (changes.email !== undefined) values.email = changes.email;
  if (changes.passwordHash !== undefined) values.password = changes.passwordHash;
  if (Object.keys(values).length === 0 && !changes.endSessions) return 0;
  const res = await db
    .updateTable('accounts')
    .set((eb) => (changes.endSessions ? { ...values, session_gen: eb('session_gen', '+', 1) } : values))
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
};

/** The account's e-mail address; null when it has none or there is no such account. */
export const findAccountEmail = async (db: Db, id: string): Promise<string | null> => {
  const row = await db.selectFrom('accounts').select('email').where('id', '=', id).executeTakeFirst();
  return row?.email || null;
};

/**
 * Locks the account row for the rest of the transaction (an UPDATE that
 * changes nothing: a row lock on PostgreSQL and MariaDB, the write lock on
 * SQLite), so transactions that count what one account did run one after the other.
 */
export const lockAccount = async (db: Db, id: string): Promise<void> => {
  await db.updateTable('accounts').set((eb) => ({ created: eb.ref('created') })).where('id', '=', id).execute();
};

/** What every authenticated request checks about its account and session: one read by primary keys. */
export interface SessionAccount {
  id: string;
  login: string;
  admin: boolean;
  active: boolean;
  /** bumped by a password change, an admin's reset, disabling and "sign out everywhere" */
  generation: number;
  /** whether the session asked about was ended by a logout */
  ended: boolean;
}

// placeholders of the compiled query, replaced by the real values at each read
const ACCOUNT = '\u0000account';
const SESSION = '\u0000session';

const sessionAccountQuery = (db: Db) =>
  db
    .selectFrom('accounts')
    .select(['id', 'login', 'admin', 'state', 'session_gen'])
    .select((eb) => eb.exists(eb.selectFrom('ended_sessions').select('ended_sessions.id').where('ended_sessions.id', '=', SESSION)).as('ended'))
    .where('accounts.id', '=', ACCOUNT)
    .compile();
type SessionAccountRow = InferResult<ReturnType<typeof sessionAccountQuery>>[number];

/** The session read, compiled once per database: only its parameters, the ids, change. */
const sessionAccountQueries = new WeakMap<Db, CompiledQuery<SessionAccountRow>>();

/** The account `id` and whether its session `sessionId` was ended by a logout (none given: not ended). */
export const findSessionAccount = async (db: Db, id: string, sessionId = ''): Promise<SessionAccount | undefined> => {
  let query = sessionAccountQueries.get(db);
  if (!query) sessionAccountQueries.set(db, (query = sessionAccountQuery(db)));
  const parameters = query.parameters.map((p) => (p === ACCOUNT ? id : p === SESSION ? sessionId : p));
  const row = (await db.executeQuery<SessionAccountRow>({ ...query, parameters })).rows[0];
  return (
    row && {
      id: row.id,
      login: row.login,
      admin: toBool(row.admin),
      active: parseAccountState(row.state) === 'Active',
      generation: Number(row.session_gen),
      ended: toBool(row.ended),
    }
  );
};

/**
 * Ends one session of the account (a plain logout), kept until `expires`, when
 * none of its tokens is valid anyway; sessions that ran out are forgotten
 * meanwhile. Ending a session twice is no error.
 */
export const endOneSession = async (db: Db, accountId: string, sessionId: string, expires: number, now: number): Promise<void> => {
  await db.deleteFrom('ended_sessions').where('expires', '<', now).execute();
  const known = await db.selectFrom('ended_sessions').select('id').where('id', '=', sessionId).executeTakeFirst();
  if (known) return;
  try {
    await db.insertInto('ended_sessions').values({ id: sessionId, account_id: accountId, expires }).execute();
  } catch (e) {
    // a second logout of the same session at the same time: the first one ended it
    if (!(await db.selectFrom('ended_sessions').select('id').where('id', '=', sessionId).executeTakeFirst())) throw e;
  }
};

/** Ends every session of the account (see `SessionAccount.generation`); false when it does not exist. */
export const endSessions = async (db: Db, id: string): Promise<boolean> =>
  (await updateAccount(db, id, { endSessions: true })) === 1;

export const recordLogin = async (db: Db, id: string, now: number): Promise<void> => {
  await db
    .updateTable('accounts')
    .set((eb) => ({ login_count: eb('login_count', '+', 1), last_login: now }))
    .where('id', '=', id)
    .execute();
};

/**
 * Deletes the account; the database removes what it owned. The ids of its
 * upload links are retired first, so no other account ever gets them.
 */
export const deleteAccount = async (db: Db, id: string, now: number): Promise<number> =>
  db.transaction().execute(async (trx) => {
    const links = await trx
      .selectFrom('aliases')
      .select('aliases.id')
      .where('aliases.account_id', '=', id)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('retired_alias_ids').select('retired_alias_ids.id').whereRef('retired_alias_ids.id', '=', 'aliases.id'))))
      .execute();
    if (links.length > 0) await trx.insertInto('retired_alias_ids').values(links.map((l) => ({ id: l.id, account_id: id, retired: now }))).execute();
    const res = await trx.deleteFrom('accounts').where('id', '=', id).executeTakeFirst();
    return Number(res.numDeletedRows);
  });

export const countAccounts = async (db: Db): Promise<number> => {
  const row = await db.selectFrom('accounts').select((eb) => eb.fn.countAll<number>().as('c')).executeTakeFirstOrThrow();
  return Number(row.c);
};
