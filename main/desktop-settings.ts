/**
 * The desktop settings: their shape and defaults, validation of changes from the
 * settings page, migration of what was stored by another version (or edited by
 * hand), and the service that keeps them in a `SettingsStore`. Plain Node: the
 * electron-store backed store is wired in index.ts; tests use an in-memory one.
 */
import { randomBytes } from 'node:crypto';
import { isAbsolute } from 'node:path';
import type {
  EditableSettings,
  MailSettings,
  PlayerAccess,
  PlayerConnection,
  SettingsError,
  SettingsResult,
  SignupMode,
  SslType,
} from '../preload/desktop-api.js';
import { STORED_PASSWORD } from '../preload/desktop-api.js';

export const SETTINGS_VERSION = 1;

/** What is stored: the editable settings plus what only main/ writes. */
export interface DesktopSettings extends EditableSettings {
  version: number;
  /** `backend.signup.invite-password` of the hosted server: random per install, never a constant */
  invitePassword: string;
  /** the admin account the tray acts as (shares, upload links); `null` until the first start is done */
  account: { id: string; login: string } | null;
}

/** Where settings live between runs: electron-store in the app, memory in tests. */
export interface SettingsStore {
  /** the stored object, or `undefined` when nothing was stored yet */
  read(): unknown;
  write(value: DesktopSettings): void;
}

const SIGNUP: readonly SignupMode[] = ['open', 'invite', 'closed'];
const ACCESS: readonly PlayerAccess[] = ['open', 'user', 'admin'];
const SSL: readonly SslType[] = ['none', 'starttls', 'ssl'];
const IDENT = /^[A-Za-z0-9\-_@.]+$/;

export const randomSecret = (): string => randomBytes(24).toString('base64url');

/**
 * Desktop defaults, which differ from the headless server's where the LAN matters:
 * listen on the LAN (guests must reach it), sign-up closed (guests use upload links),
 * the player for signed-in users only. The received folder is chosen at first start.
 */
export const defaultSettings = (): DesktopSettings => ({
  version: SETTINGS_VERSION,
  port: 9090,
  lan: true,
  receivedFolder: '',
  signupMode: 'closed',
  playerEnabled: true,
  playerAccess: 'user',
  playerConnections: [],
  mail: { enabled: false, host: '', port: 587, user: '', password: '', sslType: 'starttls', defaultFrom: '' },
  extraConfigFile: '',
  startAtLogin: false,
  notifications: true,
  // a guest joining a room is no news most of the time: off unless asked for
  roomNotifications: false,
  invitePassword: randomSecret(),
  account: null,
});

/** The part of the settings the settings page sees and edits. */
export const editable = (s: DesktopSettings): EditableSettings => {
  const { version: _v, invitePassword: _i, account: _a, ...rest } = s;
  return structuredClone(rest);
};

/**
 * The settings as the settings page gets them: the editable part, with every stored
 * password replaced by `STORED_PASSWORD`. Passwords never go back to a page.
 */
export const pageSettings = (s: DesktopSettings): EditableSettings => {
  const page = editable(s);
  const mask = (password: string) => (password === '' ? '' : STORED_PASSWORD);
  page.mail.password = mask(page.mail.password);
  for (const c of page.playerConnections) c.password = mask(c.password);
  return page;
};

const EDITABLE_KEYS = Object.keys(editable(defaultSettings())) as (keyof EditableSettings)[];

type Check = (value: unknown, field: string, errors: SettingsError[]) => void;

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const err = (errors: SettingsError[], field: string, message: string) => errors.push({ field, message });
const bool: Check = (v, f, e) => {
  if (typeof v !== 'boolean') err(e, f, 'must be true or false');
};
const portOf =
  (min: number): Check =>
  (v, f, e) => {
    if (!Number.isInteger(v) || (v as number) < min || (v as number) > 65535) err(e, f, `must be a whole number from ${min} to 65535`);
  };
const text =
  (max = 1000): Check =>
  (v, f, e) => {
    if (typeof v !== 'string') err(e, f, 'must be text');
    else if (v.length > max) err(e, f, `must be at most ${max} characters`);
    else if (/[\r\n\0]/.test(v)) err(e, f, 'must be a single line');
  };
const oneOf =
  (values: readonly string[]): Check =>
  (v, f, e) => {
    if (typeof v !== 'string' || !values.includes(v)) err(e, f, `must be one of ${values.join(', ')}`);
  };
const absolutePath =
  (optional: boolean): Check =>
  (v, f, e) => {
    text(4096)(v, f, e);
    if (typeof v !== 'string' || e.some((x) => x.field === f)) return;
    if (v === '' && optional) return;
    if (v === '') err(e, f, 'must be chosen');
    else if (!isAbsolute(v)) err(e, f, 'must be an absolute path');
  };

const checkMail: Check = (v, f, e) => {
  if (!isObj(v)) return err(e, f, 'must be an object');
  checkFields<MailSettings>(v, f, e, {
    enabled: bool,
    host: text(253),
    port: portOf(1),
    user: text(),
    password: text(),
    sslType: oneOf(SSL),
    defaultFrom: text(254),
  });
  if (v['enabled'] === true && typeof v['host'] === 'string' && v['host'].trim() === '') err(e, `${f}.host`, 'is required when mail is enabled');
};

const checkConnections: Check = (v, f, e) => {
  if (!Array.isArray(v)) return err(e, f, 'must be a list');
  if (v.length > 50) return err(e, f, 'must have at most 50 entries');
  const seen = new Set<string>();
  v.forEach((c, i) => {
    const at = `${f}.${i}`;
    if (!isObj(c)) return err(e, at, 'must be an object');
    checkFields<PlayerConnection>(c, at, e, { id: text(64), title: text(200), host: text(253), port: portOf(1), password: text() });
    const id = c['id'];
    if (typeof id === 'string' && !IDENT.test(id)) err(e, `${at}.id`, 'may contain only letters, digits and - _ @ .');
    if (typeof id === 'string' && seen.has(id)) err(e, `${at}.id`, `${JSON.stringify(id)} is used twice`);
    if (typeof id === 'string') seen.add(id);
    if (typeof c['host'] === 'string' && c['host'].trim() === '') err(e, `${at}.host`, 'is required');
  });
};

const editableChecks: { [K in keyof EditableSettings]: Check } = {
  port: portOf(0),
  lan: bool,
  receivedFolder: absolutePath(false),
  signupMode: oneOf(SIGNUP),
  playerEnabled: bool,
  playerAccess: oneOf(ACCESS),
  playerConnections: checkConnections,
  mail: checkMail,
  extraConfigFile: absolutePath(true),
  startAtLogin: bool,
  notifications: bool,
  roomNotifications: bool,
};

/** Checks exactly the fields of `checks`: each present and valid, no others. */
function checkFields<T>(v: Record<string, unknown>, at: string, e: SettingsError[], checks: { [K in keyof T]: Check }): void {
  const name = (k: string) => (at === '' ? k : `${at}.${k}`);
  for (const [k, check] of Object.entries(checks) as [string, Check][]) {
    if (!(k in v)) err(e, name(k), 'is missing');
    else check(v[k], name(k), e);
  }
  for (const k of Object.keys(v)) if (!(k in checks)) err(e, name(k), 'is not a setting');
}

/** Every problem of a complete set of editable settings (empty when valid). */
export const validateEditable = (value: unknown): SettingsError[] => {
  const errors: SettingsError[] = [];
  if (!isObj(value)) return [{ field: '', message: 'must be an object' }];
  checkFields<EditableSettings>(value, '', errors, editableChecks);
  return errors;
};

const sameHost = (a: unknown, b: string): boolean => typeof a === 'string' && a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * Puts the stored passwords in place of `STORED_PASSWORD` in `patch` (modified).
 * The stored password is kept only for the same server: the mail password while
 * `mail.host`, its port and its TLS setting are unchanged, a player password for the connection with the same id
 * and host. Anywhere else the marker is an error: a page must not be able to send a
 * stored password to a host of its choice.
 */
const keepStoredPasswords = (current: DesktopSettings, patch: Record<string, unknown>): SettingsError[] => {
  const errors: SettingsError[] = [];
  const again = 'no stored password for this server: enter it again';
  const mail = patch['mail'];
  if (isObj(mail) && mail['password'] === STORED_PASSWORD) {
    // the same server the same way: a new port or a weaker TLS setting could send it in clear to a listener
    const sameServer = sameHost(mail['host'], current.mail.host) && mail['port'] === current.mail.port && mail['sslType'] === current.mail.sslType;
    if (current.mail.password !== '' && sameServer) mail['password'] = current.mail.password;
    else err(errors, 'mail.password', again);
  }
  const connections = patch['playerConnections'];
  if (Array.isArray(connections)) {
    connections.forEach((c: unknown, i) => {
      if (!isObj(c) || c['password'] !== STORED_PASSWORD) return;
      const was = current.playerConnections.find((p) => p.id === c['id'] && sameHost(c['host'], p.host));
      if (was && was.password !== '') c['password'] = was.password;
      else err(errors, `playerConnections.${i}.password`, again);
    });
  }
  return errors;
};

/**
 * Applies a change from the settings page: `patch` holds some editable fields
 * (nested objects such as `mail` are replaced whole; `STORED_PASSWORD` keeps a
 * stored password, see keepStoredPasswords). Every problem is reported at once and
 * nothing changes unless all is valid.
 */
export const applyPatch = (current: DesktopSettings, patch: unknown): { ok: true; settings: DesktopSettings } | { ok: false; errors: SettingsError[] } => {
  if (!isObj(patch)) return { ok: false, errors: [{ field: '', message: 'must be an object' }] };
  const unknown = Object.keys(patch).filter((k) => !(EDITABLE_KEYS as string[]).includes(k));
  if (unknown.length > 0) return { ok: false, errors: unknown.map((k) => ({ field: k, message: 'is not a setting' })) };
  const given = structuredClone(patch);
  const kept = keepStoredPasswords(current, given);
  const next = { ...editable(current), ...given };
  const errors = [...kept, ...validateEditable(next).filter((e) => !kept.some((k) => k.field === e.field))];
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, settings: { ...current, ...(next as EditableSettings) } };
};

/** One step from version `n` to `n + 1`, on the raw stored object. */
export type Migration = (raw: Record<string, unknown>) => Record<string, unknown>;

/**
 * Steps from each older version to the next: `MIGRATIONS[n]` turns version n into
 * n + 1. Version 0 is a store written before settings had a version.
 */
export const MIGRATIONS: Record<number, Migration> = {
  0: (raw) => raw,
};

/**
 * Brings what the store holds to the current shape. Older versions run through
 * `migrations`; then every field that is missing or invalid (a hand-edited file, a
 * newer version's value) takes its default and is reported in `repaired`, and
 * unknown fields are dropped. Never throws: Pier must start with broken settings.
 */
export const migrateSettings = (
  stored: unknown,
  migrations: Record<number, Migration> = MIGRATIONS,
  target = SETTINGS_VERSION,
): { settings: DesktopSettings; repaired: string[] } => {
  const defaults = defaultSettings();
  if (stored === undefined) return { settings: defaults, repaired: [] };
  if (!isObj(stored)) return { settings: defaults, repaired: ['(all settings)'] };
  let raw: Record<string, unknown> = structuredClone(stored);
  const from = Number.isInteger(raw['version']) ? (raw['version'] as number) : 0;
  for (let v = from; v < target; v++) {
    const step = migrations[v];
    if (step) raw = step(raw);
  }

  const repaired: string[] = [];
  const out: Record<string, unknown> = { ...defaults, version: target };
  for (const key of EDITABLE_KEYS) {
    const errors: SettingsError[] = [];
    if (key in raw) editableChecks[key](raw[key], key, errors);
    if (!(key in raw)) continue;
    if (errors.length === 0) out[key] = raw[key];
    else repaired.push(key);
  }
  const secret = raw['invitePassword'];
  if (typeof secret === 'string' && secret.length >= 16) out['invitePassword'] = secret;
  else if (secret !== undefined) repaired.push('invitePassword');
  const account = raw['account'];
  if (isObj(account) && typeof account['id'] === 'string' && typeof account['login'] === 'string')
    out['account'] = { id: account['id'], login: account['login'] };
  else if (account !== undefined && account !== null) repaired.push('account');
  return { settings: out as unknown as DesktopSettings, repaired };
};

/** Fields whose change needs a server restart (all but those only main/ reads). */
const SERVER_KEYS: (keyof DesktopSettings)[] = EDITABLE_KEYS.filter((k) => k !== 'startAtLogin' && k !== 'notifications' && k !== 'roomNotifications');

/** True when the hosted server must restart to apply the change from `a` to `b`. */
export const needsRestart = (a: DesktopSettings, b: DesktopSettings): boolean =>
  SERVER_KEYS.some((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k])) || a.invitePassword !== b.invitePassword;

export interface Settings {
  get(): DesktopSettings;
  /** A change from the settings page; saved and announced when valid. The answer is for the page (`pageSettings`). */
  update(patch: unknown): SettingsResult;
  /** A change by main/ itself (first start, account); not validated as a page change. */
  replace(next: DesktopSettings): void;
  onChange(listener: (next: DesktopSettings, previous: DesktopSettings) => void): () => void;
}

/**
 * The settings service over a store. Reading migrates (and writes back when the
 * stored form was older or repaired); `warn` receives what was repaired.
 */
export const createSettings = (store: SettingsStore, warn: (message: string) => void = () => {}): Settings => {
  const stored = store.read();
  const { settings, repaired } = migrateSettings(stored);
  if (repaired.length > 0) warn(`Settings reset to their defaults because they were invalid: ${repaired.join(', ')}`);
  let current = settings;
  if (stored === undefined || repaired.length > 0 || (stored as { version?: unknown }).version !== SETTINGS_VERSION) store.write(current);
  const listeners = new Set<(next: DesktopSettings, previous: DesktopSettings) => void>();

  const replace = (next: DesktopSettings) => {
    const previous = current;
    current = next;
    store.write(next);
    for (const l of [...listeners]) l(next, previous);
  };

  return {
    get: () => structuredClone(current),
    update(patch) {
      const result = applyPatch(current, patch);
      if (!result.ok) return { success: false, errors: result.errors };
      replace(result.settings);
      return { success: true, settings: pageSettings(result.settings) };
    },
    replace: (next) => replace(structuredClone(next)),
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
};

/** A store that keeps the settings in memory (tests, and a fallback when the file cannot be written). */
export const memorySettingsStore = (initial?: unknown): SettingsStore & { value: unknown } => {
  const s = {
    value: initial === undefined ? undefined : structuredClone(initial),
    read: () => (s.value === undefined ? undefined : structuredClone(s.value)),
    write: (v: DesktopSettings) => {
      s.value = structuredClone(v);
    },
  };
  return s;
};
