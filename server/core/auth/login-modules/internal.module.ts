import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { findAccountByLogin, findPasswordHash } from '../../accounts/account.repository.js';
import { verifyPassword } from '../password-hash.js';
import { failed, pass, type LoginModule } from './login-module.js';

/**
 * The `internal` module: accounts created by sign-up or an admin (source
 * `intern`), checked against their scrypt hash. Unknown logins and accounts
 * of other sources pass on. The hash is checked for disabled accounts too, so
 * their answer takes as long as a wrong password's. A login that another
 * module owns (the `fixed` user) passes on whatever the order.
 */
export const internalModule = (db: Kysely<Database>, order: number, ownedElsewhere: readonly string[] = []): LoginModule => ({
  name: 'internal',
  order,
  async check(login, password) {
    if (ownedElsewhere.includes(login)) return pass;
    const account = await findAccountByLogin(db, login);
    if (!account || account.source !== 'intern') return pass;
    const matches = await verifyPassword(password, await findPasswordHash(db, account.id));
    if (account.state !== 'Active' || !matches) return failed;
    return { kind: 'success', login: account.login, source: 'intern', admin: account.admin };
  },
});
