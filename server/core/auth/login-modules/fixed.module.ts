import { hashPassword, verifyPassword } from '../password-hash.js';
import { external, failed, pass, type LoginModule } from './login-module.js';

/**
 * The `fixed` module: one configured admin user. Other user names pass on to
 * the next module; a wrong password for the configured user fails. The
 * password is compared through an scrypt hash of the configured one (made
 * once), so a wrong password for this user costs what it costs for any
 * other account, and timing does not single out the configured login.
 * The configured user wins over an internal account of the same name.
 */
export const fixedModule = (cfg: { user: string; password: string; order: number }): LoginModule => {
  let stored: Promise<string> | undefined;
  return {
    name: 'fixed',
    order: cfg.order,
    async check(login, password) {
      if (login !== cfg.user.toLowerCase()) return pass;
      stored ??= hashPassword(cfg.password);
      return (await verifyPassword(password, await stored)) ? { ...external(login, true), ownsLogin: true } : failed;
    },
  };
};
