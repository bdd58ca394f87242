import type { Kysely } from 'kysely';
import type { Logger } from '../../../common/log.js';
import type { Config } from '../../../config/types.js';
import type { Database } from '../../../db/schema.js';
import { commandModule } from './command.module.js';
import { fixedModule } from './fixed.module.js';
import { httpBasicModule } from './http-basic.module.js';
import { httpModule } from './http.module.js';
import { internalModule } from './internal.module.js';
import type { LoginModule } from './login-module.js';

/** The enabled login modules of the configuration, in ascending `order`. */
export const buildLoginModules = (
  auth: Config['backend']['auth'],
  db: Kysely<Database>,
  log: Logger,
): LoginModule[] => {
  const modules: LoginModule[] = [];
  if (auth.fixed.enabled) modules.push(fixedModule(auth.fixed));
  if (auth.http.enabled) modules.push(httpModule(auth.http, log.child('http')));
  if (auth.httpBasic.enabled) modules.push(httpBasicModule(auth.httpBasic, log.child('http-basic')));
  if (auth.command.enabled) modules.push(commandModule(auth.command, log.child('command')));
  const ownedElsewhere = auth.fixed.enabled ? [auth.fixed.user.toLowerCase()] : [];
  if (auth.internal.enabled) modules.push(internalModule(db, auth.internal.order, ownedElsewhere));
  return modules.sort((a, b) => a.order - b.order);
};
