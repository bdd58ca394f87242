import { secretEquals } from '../password-hash.js';
import { external, failed, pass, type LoginModule } from './login-module.js';

/**
 * The `fixed` module: one configured admin user. Other user names pass on to
 * the next module; a wrong password for the configured user fails.
 */
export const fixedModule = (cfg: { user: string; password: string; order: number }): LoginModule => ({
  name: 'fixed',
  order: cfg.order,
  check(login, password) {
    if (login !== cfg.user.toLowerCase()) return Promise.resolve(pass);
    return Promise.resolve(secretEquals(password, cfg.password) ? external(login, true) : failed);
  },
});
