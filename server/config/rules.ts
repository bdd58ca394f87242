/**
 * The rules that involve more than one key, or a key's meaning rather than
 * its type. They run on the loaded value, report problems into `issues` and
 * apply the documented fix-ups (ZIP limit capped, language fallback, disabled
 * stores removed, effective checksum parallelism and player fallbacks).
 */
import { availableParallelism } from 'node:os';
import { formatDuration } from '../common/durations.js';
import { formatSize } from '../common/sizes.js';
import { showKey } from './paths.js';
import type { Issues } from './resolve.js';
import type { SpecValue } from './spec.js';

const key = (path: string): string => showKey(path.split('.'));
const languages = ['gb', 'de', 'fr'];
const localHosts = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** True when `base-url` points at this machine only (the URL is then derived per request). */
export const isLocalUrl = (url: string): boolean => {
  try {
    return localHosts.has(new URL(url).hostname);
  } catch {
    return false;
  }
};

/** Checks and completes `c` in place. */
export const applyRules = (c: SpecValue, issues: Issues): void => {
  const { errors, warnings } = issues;
  const err = (path: string, message: string) => errors.push(`${key(path)}: ${message}`);
  checkBaseUrl(c.baseUrl, err, warnings);

  const { sessionValid } = c.backend.auth;
  if (c.webapp.authRenewal > sessionValid - 30_000)
    err('webapp.auth-renewal', `${fmt(c.webapp.authRenewal)} must be at least 30 seconds below ${key('backend.auth.session-valid')} (${fmt(sessionValid)})`);
  const { maxValidity, maxSize } = c.backend.share;
  if (c.webapp.defaultValidity > maxValidity)
    err('webapp.default-validity', `${fmt(c.webapp.defaultValidity)} is above ${key('backend.share.max-validity')} (${fmt(maxValidity)})`);
  if (c.backend.share.zipMaxSize > maxSize) {
    warnings.push(`${key('backend.share.zip-max-size')}: ${formatSize(c.backend.share.zipMaxSize)} is above ${key('backend.share.max-size')}; capped to ${formatSize(maxSize)}`);
    c.backend.share.zipMaxSize = maxSize;
  }
  if (!languages.includes(c.webapp.defaultLanguage.toLowerCase())) {
    warnings.push(`${key('webapp.default-language')}: ${JSON.stringify(c.webapp.defaultLanguage)} is not one of ${languages.join(', ')}; using gb`);
    c.webapp.defaultLanguage = 'gb';
  } else c.webapp.defaultLanguage = c.webapp.defaultLanguage.toLowerCase();
  if (c.webapp.defaultTimezone !== '' && !isTimeZone(c.webapp.defaultTimezone))
    err('webapp.default-timezone', `unknown time zone ${JSON.stringify(c.webapp.defaultTimezone)}`);

  checkJdbc(c.backend.jdbc.url, err);
  checkStores(c, err);
  checkAuth(c, err, warnings);

  const cc = c.backend.computeChecksum;
  if (cc.useDefault) cc.parallel = Math.max(1, availableParallelism() - 1);
  else if (cc.parallel < 1) err('backend.compute-checksum.parallel', `must be above 0 when use-default is false, got ${cc.parallel}`);

  if (c.backend.mail.enabled && c.backend.mail.smtp.host.trim() === '') err('backend.mail.smtp.host', 'is required when mail is enabled, got ""');
  if (c.backend.signup.mode === 'invite' && c.backend.signup.invitePassword === '')
    warnings.push(`${key('backend.signup.invite-password')}: empty, so no invitation keys can be created while ${key('backend.signup.mode')} is invite`);
  if (c.customContent.enabled && c.customContent.directory.trim() === '') err('custom-content.directory', 'is required when custom content is enabled, got ""');
  checkPlayer(c, err);
};

type Err = (path: string, message: string) => void;

const fmt = (ms: number): string => formatDuration(ms);

const isTimeZone = (tz: string): boolean => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};

const checkBaseUrl = (url: string, err: Err, warnings: string[]): void => {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return err('base-url', `not a URL: ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') err('base-url', `must start with http:// or https://, got ${JSON.stringify(url)}`);
  if (url.endsWith('/')) err('base-url', `must not end with a slash, got ${JSON.stringify(url)}`);
  else if (parsed.pathname !== '/' || parsed.search !== '' || parsed.hash !== '')
    warnings.push(`${key('base-url')}: ${JSON.stringify(url)} has a path; serving below a path is not supported`);
};

const checkJdbc = (url: string, err: Err): void => {
  const show = JSON.stringify(url);
  if (url.startsWith('jdbc:h2:')) err('backend.jdbc.url', `H2 is not supported, use jdbc:sqlite:<file> for the embedded database, got ${show}`);
  else if (/^jdbc:sqlite:./.test(url) || /^jdbc:(postgresql|mariadb):\/\/[^/]+\/[^/?]+/.test(url)) return;
  else err('backend.jdbc.url', `expected jdbc:sqlite:<file>, jdbc:postgresql://host:port/db or jdbc:mariadb://host:port/db, got ${show}`);
};

const checkStores = (c: SpecValue, err: Err): void => {
  const files = c.backend.files;
  const all = files.stores;
  files.stores = Object.fromEntries(Object.entries(all).filter(([, s]) => s.enabled));
  const usable = (path: string, id: string) => {
    if (!(id in all)) err(path, `${JSON.stringify(id)} is not a configured store (known: ${Object.keys(all).join(', ')})`);
    else if (!(id in files.stores)) err(path, `store ${JSON.stringify(id)} is not enabled`);
  };
  usable('backend.files.default-store', files.defaultStore);
  for (const [id, s] of Object.entries(files.stores)) {
    const at = `backend.files.stores.${id}`;
    if (s.type === 'file-system' && s.directory.trim() === '') err(`${at}.directory`, 'is required for a file-system store, got ""');
    if (s.type === 's3' && s.endpoint.trim() === '') err(`${at}.endpoint`, 'is required for an s3 store, got ""');
    if (s.type === 's3' && s.bucket.trim() === '') err(`${at}.bucket`, 'is required for an s3 store, got ""');
  }
  const copy = files.copyFiles;
  if (!copy.enable) return;
  usable('backend.files.copy-files.source', copy.source);
  usable('backend.files.copy-files.target', copy.target);
  if (copy.source === copy.target) err('backend.files.copy-files.target', `must differ from the source, got ${JSON.stringify(copy.target)}`);
};

const checkAuth = (c: SpecValue, err: Err, warnings: string[]): void => {
  const a = c.backend.auth;
  if (a.fixed.enabled && a.fixed.user.trim() === '') err('backend.auth.fixed.user', 'is required when the fixed module is enabled, got ""');
  if (a.fixed.enabled && a.fixed.password === '') err('backend.auth.fixed.password', 'is required when the fixed module is enabled, got ""');
  for (const [mod, m] of [['http', a.http], ['http-basic', a.httpBasic]] as const) {
    if (!/^[A-Za-z]+$/.test(m.method)) err(`backend.auth.${mod}.method`, `expected an HTTP method, got ${JSON.stringify(m.method)}`);
    m.method = m.method.toUpperCase();
    if (m.enabled && m.url.trim() === '') err(`backend.auth.${mod}.url`, `is required when the ${mod} module is enabled, got ""`);
  }
  if (a.command.enabled && (a.command.program[0] ?? '') === '') err('backend.auth.command.program', `needs at least the program, got ${JSON.stringify(a.command.program)}`);
  const required = ['authorize-url', 'token-url', 'user-url', 'user-id-key', 'client-id'] as const;
  const field = { 'authorize-url': 'authorizeUrl', 'token-url': 'tokenUrl', 'user-url': 'userUrl', 'user-id-key': 'userIdKey', 'client-id': 'clientId' } as const;
  for (const [id, p] of Object.entries(a.oauth)) {
    if (!p.enabled) continue;
    for (const k of required) if (p[field[k]].trim() === '') err(`backend.auth.oauth.${id}.${k}`, 'is required for an enabled provider, got ""');
  }
  if (a.proxy.enabled && a.proxy.userHeader.trim() === '') err('backend.auth.proxy.user-header', 'is required when proxy login is enabled, got ""');
  const passwordModules = a.fixed.enabled || a.http.enabled || a.httpBasic.enabled || a.command.enabled || a.internal.enabled;
  const external = a.proxy.enabled || Object.values(a.oauth).some((p) => p.enabled);
  if (!passwordModules && !external) warnings.push(`${key('backend.auth')}: no login module is enabled; nobody can log in`);
  if (!a.internal.enabled && c.backend.signup.mode !== 'closed')
    warnings.push(`${key('backend.signup.mode')}: is ${c.backend.signup.mode} while ${key('backend.auth.internal.enabled')} is false; signed-up accounts cannot log in`);
};

const checkPlayer = (c: SpecValue, err: Err): void => {
  const p = c.player;
  if (p.enabled && !('default' in p.connections)) err('player.connections.default', 'is required when the player is enabled');
  for (const [id, conn] of Object.entries(p.connections)) {
    if (p.enabled && conn.host.trim() === '') err(`player.connections.${id}.host`, 'is required when the player is enabled, got ""');
    if (conn.title === '') conn.title = id;
    if (conn.musicDirectory === '') conn.musicDirectory = p.musicDirectory;
  }
};
