/**
 * The rules that involve more than one key, or a key's meaning rather than
 * its type. They run on the loaded value, report problems into `issues` and
 * apply the documented fix-ups (ZIP limit capped, language fallback, disabled
 * stores removed, effective checksum parallelism and player fallbacks).
 */
import { availableParallelism } from 'node:os';
import { formatDuration as fmt } from '../common/durations.js';
import { formatSize } from '../common/sizes.js';
import { parseIpRanges } from '../common/ip-ranges.js';
import { coerceLeaf } from './coerce.js';
import { envName, showKey } from './paths.js';
import type { Issues } from './resolve.js';
import { bool } from './spec-kit.js';
import type { SpecValue } from './spec.js';

const key = (path: string): string => showKey(path.split('.'));
// the client's languages (Sharry's codes); cz, br and ja show English until they are translated
const languages = ['gb', 'de', 'es', 'fr', 'it', 'cz', 'br', 'ja'];
const localHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/** An `allowed-hosts` entry: a name or IPv4 address, `.domain`, a bracketed or bare IPv6 address, or `*`. */
const allowedHostPattern = /^(\*|\.?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.?|\[?[0-9A-Fa-f:.]+\]?)$/;

/** True when `base-url` points at this machine only (the URL is then derived per request). */
export const isLocalUrl = (url: string): boolean => {
  try {
    return localHosts.has(new URL(url).hostname);
  } catch {
    return false;
  }
};

/** Reporting helpers; paths are below `service.restserver`. */
interface Report {
  err(path: string, message: string): void;
  warn(path: string, message: string): void;
  /** an error when `when` holds and `value` is blank */
  need(path: string, value: string, when: boolean, reason: string): void;
}

/** Checks and completes `c` in place. */
export const applyRules = (c: SpecValue, issues: Issues): void => {
  const r: Report = {
    err: (path, message) => issues.errors.push(`${key(path)}: ${message}`),
    warn: (path, message) => issues.warnings.push(`${key(path)}: ${message}`),
    need: (path, value, when, reason) => {
      if (when && value.trim() === '') r.err(path, `is required ${reason}, got ""`);
    },
  };
  checkBaseUrl(c.baseUrl, r);
  checkWebapp(c, r);
  checkJdbc(c.backend.jdbc.url, r);
  checkStores(c, r);
  checkAuth(c, r);
  for (const [i, entry] of c.allowedHosts.entries()) {
    if (!allowedHostPattern.test(entry.trim())) r.err(`allowed-hosts.${i}`, `expected a host name, an address, .domain or *, got ${JSON.stringify(entry)}`);
  }
  for (const [i, entry] of c.trustedProxies.entries()) {
    try {
      parseIpRanges([entry]);
    } catch (e) {
      r.err(`trusted-proxies.${i}`, (e as Error).message);
    }
  }
  if (c.backend.auth.sessionMax < c.backend.auth.sessionValid) {
    r.warn('backend.auth.session-max', `is below backend.auth.session-valid (${fmt(c.backend.auth.sessionValid)}), so it is raised to that, got ${fmt(c.backend.auth.sessionMax)}`);
    c.backend.auth.sessionMax = c.backend.auth.sessionValid;
  }

  const cc = c.backend.computeChecksum;
  if (cc.useDefault) cc.parallel = Math.max(1, availableParallelism() - 1);
  else if (cc.parallel < 1) r.err('backend.compute-checksum.parallel', `must be above 0 when use-default is false, got ${cc.parallel}`);

  r.need('backend.mail.smtp.host', c.backend.mail.smtp.host, c.backend.mail.enabled, 'when mail is enabled');
  r.need('custom-content.directory', c.customContent.directory, c.customContent.enabled, 'when custom content is enabled');
  checkPlayer(c, r);
};

const checkWebapp = (c: SpecValue, r: Report): void => {
  const w = c.webapp;
  const { sessionValid } = c.backend.auth;
  const { maxValidity, maxSize } = c.backend.share;
  if (w.authRenewal > sessionValid - 30_000)
    r.err('webapp.auth-renewal', `${fmt(w.authRenewal)} must be at least 30 seconds below ${key('backend.auth.session-valid')} (${fmt(sessionValid)})`);
  if (w.defaultValidity > maxValidity)
    r.err('webapp.default-validity', `${fmt(w.defaultValidity)} is above ${key('backend.share.max-validity')} (${fmt(maxValidity)})`);
  if (c.backend.share.zipMaxSize > maxSize) {
    const zip = formatSize(c.backend.share.zipMaxSize);
    r.warn('backend.share.zip-max-size', `${zip} is above ${key('backend.share.max-size')}; capped to ${formatSize(maxSize)}`);
    c.backend.share.zipMaxSize = maxSize;
  }
  const language = w.defaultLanguage.toLowerCase();
  if (!languages.includes(language))
    r.warn('webapp.default-language', `${JSON.stringify(w.defaultLanguage)} is not one of ${languages.join(', ')}; using gb`);
  w.defaultLanguage = languages.includes(language) ? language : 'gb';
  if (w.defaultTimezone !== '' && !isTimeZone(w.defaultTimezone))
    r.err('webapp.default-timezone', `unknown time zone ${JSON.stringify(w.defaultTimezone)}`);
  checkSharryPublish(w, r);
};

/** A configured `auto-publish-enabled` (Sharry's name) decides `publish-on-upload`, and is warned about. */
const checkSharryPublish = (w: SpecValue['webapp'], r: Report): void => {
  if (w.autoPublishEnabled.trim() === '') return;
  const parsed = coerceLeaf(bool(false, ''), w.autoPublishEnabled);
  if (!parsed.ok) return r.err('webapp.auto-publish-enabled', `${parsed.problem}, got ${JSON.stringify(w.autoPublishEnabled)}`);
  w.publishOnUpload = parsed.value as boolean;
  r.warn(
    'webapp.auto-publish-enabled',
    `is Sharry's name for ${key('webapp.publish-on-upload')}; its value (${w.publishOnUpload}) is used for that key, so rename it`,
  );
};

const isTimeZone = (tz: string): boolean => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};

const checkBaseUrl = (url: string, r: Report): void => {
  const show = JSON.stringify(url);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return r.err('base-url', `expected a URL, got ${show}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') r.err('base-url', `expected http:// or https://, got ${show}`);
  if (url.endsWith('/')) r.err('base-url', `must not end with a slash, got ${show}`);
  else if (parsed.pathname !== '/' || parsed.search !== '' || parsed.hash !== '')
    r.warn('base-url', `${show} has a path; serving below a path is not supported`);
};

const checkJdbc = (url: string, r: Report): void => {
  const show = JSON.stringify(url);
  if (url.startsWith('jdbc:h2:'))
    r.err('backend.jdbc.url', `H2 is not supported, use jdbc:sqlite:<file> for the embedded database, got ${show}`);
  else if (!/^jdbc:sqlite:./.test(url) && !/^jdbc:(postgresql|mariadb):\/\/[^/]+\/[^/?]+/.test(url))
    r.err('backend.jdbc.url', `expected jdbc:sqlite:<file>, jdbc:postgresql://host:port/db or jdbc:mariadb://host:port/db, got ${show}`);
};

const checkStores = (c: SpecValue, r: Report): void => {
  const files = c.backend.files;
  const all = files.stores;
  files.stores = Object.fromEntries(Object.entries(all).filter(([, s]) => s.enabled));
  const usable = (path: string, id: string) => {
    if (!(id in all)) r.err(path, `${JSON.stringify(id)} is not a configured store (known: ${Object.keys(all).join(', ')})`);
    else if (!(id in files.stores)) r.err(path, `store ${JSON.stringify(id)} is not enabled`);
  };
  usable('backend.files.default-store', files.defaultStore);
  for (const [id, s] of Object.entries(files.stores)) {
    const at = `backend.files.stores.${id}`;
    r.need(`${at}.directory`, s.directory, s.type === 'file-system', 'for a file-system store');
    r.need(`${at}.endpoint`, s.endpoint, s.type === 's3', 'for an s3 store');
    r.need(`${at}.bucket`, s.bucket, s.type === 's3', 'for an s3 store');
  }
  const copy = files.copyFiles;
  if (!copy.enable) return;
  usable('backend.files.copy-files.source', copy.source);
  usable('backend.files.copy-files.target', copy.target);
  if (copy.source === copy.target)
    r.err('backend.files.copy-files.target', `must differ from the source, got ${JSON.stringify(copy.target)}`);
};

const oauthRequired = {
  'authorize-url': 'authorizeUrl',
  'token-url': 'tokenUrl',
  'user-url': 'userUrl',
  'user-id-key': 'userIdKey',
  'client-id': 'clientId',
} as const;

const checkAuth = (c: SpecValue, r: Report): void => {
  const a = c.backend.auth;
  // a fixed password below the minimum is the operator's own choice: the server starts and warns (weakFixedPassword)
  checkFixed(a.fixed, r);
  for (const [mod, m] of [['http', a.http], ['http-basic', a.httpBasic]] as const) {
    if (!/^[A-Za-z]+$/.test(m.method)) r.err(`backend.auth.${mod}.method`, `expected an HTTP method, got ${JSON.stringify(m.method)}`);
    m.method = m.method.toUpperCase();
    r.need(`backend.auth.${mod}.url`, m.url, m.enabled, `when the ${mod} module is enabled`);
  }
  if (a.command.enabled && (a.command.program[0] ?? '').trim() === '')
    r.err('backend.auth.command.program', `needs at least the program, got ${JSON.stringify(a.command.program)}`);
  for (const [id, p] of Object.entries(a.oauth))
    for (const [k, field] of Object.entries(oauthRequired))
      r.need(`backend.auth.oauth.${id}.${k}`, p[field], p.enabled, 'for an enabled provider');
  r.need('backend.auth.proxy.user-header', a.proxy.userHeader, a.proxy.enabled, 'when proxy login is enabled');

  const passwordModules = [a.fixed, a.http, a.httpBasic, a.command, a.internal].some((m) => m.enabled);
  const external = a.proxy.enabled || Object.values(a.oauth).some((p) => p.enabled);
  if (!passwordModules && !external) r.warn('backend.auth', 'no login module is enabled; nobody can log in');
  if (!a.internal.enabled && c.backend.signup.mode !== 'closed')
    r.warn('backend.signup.mode', `is ${c.backend.signup.mode} but the internal login module is disabled; signed-up accounts cannot log in`);
};

/**
 * The warning for an enabled fixed login whose password is shorter than
 * `backend.auth.password-min-length` (Sharry's documented `admin`/`admin`),
 * or undefined. The server logs it at every start, as an error, until the
 * file is changed: the operator chose it, so it does not stop the start.
 */
export const weakFixedPassword = (a: { fixed: { enabled: boolean; user: string; password: string }; passwordMinLength: number }): string | undefined => {
  const chars = [...a.fixed.password].length;
  if (!a.fixed.enabled || chars === 0 || chars >= a.passwordMinLength) return undefined;
  return (
    `SECURITY: ${key('backend.auth.fixed.password')} has ${chars} characters, fewer than ${key('backend.auth.password-min-length')} ` +
    `(${a.passwordMinLength}): the admin login '${a.fixed.user}' is easy to guess. Set a longer password.`
  );
};

/** One message for an enabled fixed login that lacks its login or password: there is no default for either. */
const checkFixed = (fixed: SpecValue['backend']['auth']['fixed'], r: Report): void => {
  if (!fixed.enabled) return;
  const missing = (['user', 'password'] as const).filter((k) => fixed[k].trim() === '');
  if (missing.length === 0) return;
  const paths = missing.map((k) => ['backend', 'auth', 'fixed', k]);
  r.err(
    'backend.auth.fixed',
    `is enabled without ${missing.map((k) => `a ${k}`).join(' and ')}, and there is no default (no admin/admin); ` +
      `set ${paths.map(showKey).join(' and ')} (environment: ${paths.map(envName).join(' and ')})`,
  );
};

const checkPlayer = (c: SpecValue, r: Report): void => {
  const p = c.player;
  if (p.enabled && !('default' in p.connections)) r.err('player.connections.default', 'is required when the player is enabled');
  for (const [id, conn] of Object.entries(p.connections)) {
    r.need(`player.connections.${id}.host`, conn.host, p.enabled, 'when the player is enabled');
    if (conn.title === '') conn.title = id;
    if (conn.musicDirectory === '') conn.musicDirectory = p.musicDirectory;
  }
};
