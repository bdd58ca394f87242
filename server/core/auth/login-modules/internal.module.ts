import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { findAccountByLogin, findPasswordHash } from '../../accounts/account.repository.js';
import { verifyPassword } from '../password-hash.js';
import { failed, pass, type LoginModule } from './login-module.js';

/**
 * The `internal` module: accounts created by sign-up or an admin (source
 * `intern`), checked against their scrypt hash. Unknown logins and accounts
 * of other sources pass on.
 */
export const internalModule = (db: Kysely<Database>, order: number): LoginModule => ({
  name: 'internal',
  order,
  async check(login, password) {
    const account = await findAccountByLogin(db, login);
    if (!account || account.source !== 'intern') return pass;
    const hash = await findPasswordHash(db, account.id);
    if (account.state !== 'Active' || !(await verifyPassword(password, hash))) return failed;
    return { kind: 'success', login: account.login, source: 'intern', admin: account.admin };
  },
});
