import type { Logger } from '../../../common/log.js';
import type { Config } from '../../../config/types.js';
import { answeredOk, authRequestTimeoutMs, logTarget } from './http.module.js';
import { external, failed, type LoginModule } from './login-module.js';

/**
 * The `http-basic` module: sends the configured method to `url` with
 * `Authorization: Basic base64(user:pass)` (UTF-8). 2xx is a success (source
 * `extern`), anything else or no answer a failure; it always answers.
 */
export const httpBasicModule = (cfg: Config['backend']['auth']['httpBasic'], log: Logger): LoginModule => {
  const method = cfg.method.trim().toUpperCase() || 'GET';
  return {
    name: 'http-basic',
    order: cfg.order,
    async check(login, password) {
      const credentials = Buffer.from(`${login}:${password}`, 'utf8').toString('base64');
      const ok = await answeredOk(log, login, logTarget(cfg.url), () =>
        fetch(cfg.url, {
          method,
          headers: { authorization: `Basic ${credentials}` },
          redirect: 'manual',
          signal: AbortSignal.timeout(authRequestTimeoutMs),
        }),
      );
      return ok ? external(login) : failed;
    },
  };
};
