/**
 * Loading the configuration: file (HOCON or JSON) → environment overrides →
 * defaults and validation (every problem at once) → cross-key rules → server
 * secret → a deeply frozen `Config`.
 */
import { stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import parse from '@pushcorn/hocon-parser';
import { defaultDataDir, prepareDataDir } from './data-dir.js';
import { applyEnv, CONFIG_FILE_VAR, type Env } from './env.js';
import { isObject } from './paths.js';
import { resolveTree, type Issues } from './resolve.js';
import { applyRules, isLocalUrl } from './rules.js';
import { decodeSecret, resolveInvitePassword, resolveServerSecret, SECRET_FILE } from './secret.js';
import type { Raw, RawObject } from './spec-kit.js';
import { restserverSpec, ROOT, type SpecValue } from './spec.js';
import type { Config } from './types.js';

/**
 * Every problem found in the configuration; `errors` each name the key and the
 * bad value. `warnings` are those found up to then (a misspelt key often explains an error).
 */
export class ConfigError extends Error {
  readonly errors: string[];
  readonly warnings: string[];

  constructor(errors: string[], warnings: string[] = []) {
    super(`Invalid configuration:\n${errors.map((e) => `  - ${e}`).join('\n')}`);
    this.name = 'ConfigError';
    this.errors = errors;
    this.warnings = warnings;
  }
}

export interface LoadOptions {
  /** HOCON or JSON file; without it `SERVICE_CONFIG_FILE` of `env`, else the defaults apply */
  file?: string;
  /** the environment (callers pass `process.env`); used for `SERVICE_*` overrides and `${?VAR}` */
  env?: Env;
  /** defaults of the embedding program, e.g. the desktop app's user-data folder */
  defaults?: { dataDir?: string };
  /** the platform whose conventions apply (default data folder, POSIX checks); tests only */
  platform?: NodeJS.Platform;
}

/** The signing key of the widely copied example configuration. */
const PUBLISHED_SECRET = 'hex:caffee';
/** The invitation password of Sharry's example configuration, once also Pier's default. */
const PUBLISHED_INVITE_PASSWORD = 'generate-invite';

// The spec must load into exactly `Config`, apart from the two values computed here.
type Expected = Omit<Config, 'baseUrlIsLocal' | 'backend'> & {
  backend: Omit<Config['backend'], 'auth'> & {
    auth: Omit<Config['backend']['auth'], 'serverSecret'> & { serverSecret: string };
  };
};
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const specMatchesConfig: Same<SpecValue, Expected> = true;
void specMatchesConfig;

/**
 * Loads, validates and freezes the configuration. Returns the warnings (unknown
 * keys, capped values, ...) for the caller to log.
 * Throws `ConfigError` listing every problem, including an unreadable file.
 * The data directory is created (0700) when missing and refused when another
 * user owns it or others can write to it (not checked on Windows). When no
 * secret is configured, `<data-dir>/server-secret` is read or created.
 */
export const loadConfig = async (options: LoadOptions = {}): Promise<{ config: Config; warnings: string[] }> => {
  const env = options.env ?? {};
  const issues: Issues = { errors: [], warnings: [] };
  const file = options.file ?? (env[CONFIG_FILE_VAR]?.trim() || undefined);
  const source = options.file === undefined ? `${CONFIG_FILE_VAR}: ` : '';
  const tree = file === undefined ? {} : await readTree(file, source, env, issues);

  const platform = options.platform ?? process.platform;
  const dataDir = resolveDataDir(tree, env, options.defaults?.dataDir ?? defaultDataDir(env, platform), issues);
  applyEnv(restserverSpec, tree, env, { dataDir }, issues);
  const value = resolveTree(restserverSpec, tree, { dataDir }, issues) as SpecValue;
  value.dataDir = dataDir;
  applyRules(value, issues);

  const configured = value.backend.auth.serverSecret;
  if (configured !== '') {
    try {
      decodeSecret(configured);
    } catch (e) {
      issues.errors.push(`${ROOT}.backend.auth.server-secret: ${(e as Error).message} (value hidden)`);
    }
  }
  if (issues.errors.length > 0) throw new ConfigError(issues.errors, issues.warnings);

  try {
    await prepareDataDir(dataDir, platform);
  } catch (e) {
    throw new ConfigError([`${ROOT}.data-dir: ${(e as Error).message}`], issues.warnings);
  }
  // the example secret is public: signing with it would let anyone forge tokens, so it counts as not set
  const published = configured.trim().toLowerCase() === PUBLISHED_SECRET;
  let secret: Uint8Array;
  try {
    const resolved = await resolveServerSecret(published ? '' : configured, dataDir);
    secret = resolved.secret;
    if (resolved.tightened)
      issues.warnings.push(`${ROOT}.backend.auth.server-secret: ${join(dataDir, SECRET_FILE)} could be read by others; it is 0600 now`);
  } catch (e) {
    throw new ConfigError([`${ROOT}.backend.auth.server-secret: ${(e as Error).message}`], issues.warnings);
  }
  if (published)
    issues.warnings.push(
      `${ROOT}.backend.auth.server-secret: ${PUBLISHED_SECRET} is the published example secret (anyone could forge tokens with it); it is ignored and the generated secret in the data directory is used`,
    );
  else if (secret.length < 32) issues.warnings.push(`${ROOT}.backend.auth.server-secret: shorter than 32 bytes; tokens are easier to forge`);

  const signup = { ...value.backend.signup };
  // in invite mode without a password of the operator's own, one generated per install (never a constant)
  const publishedInvite = signup.invitePassword === PUBLISHED_INVITE_PASSWORD;
  if (signup.mode === 'invite' && (signup.invitePassword === '' || publishedInvite)) {
    try {
      const generated = await resolveInvitePassword(dataDir);
      signup.invitePassword = generated.password;
      issues.warnings.push(
        `${ROOT}.backend.signup.invite-password: ${publishedInvite ? `"${PUBLISHED_INVITE_PASSWORD}" is the published example password; it is ignored and` : 'not set;'} invitation keys are created with the generated password in ${generated.file}`,
      );
      if (generated.tightened) issues.warnings.push(`${ROOT}.backend.signup.invite-password: ${generated.file} could be read by others; it is 0600 now`);
    } catch (e) {
      throw new ConfigError([`${ROOT}.backend.signup.invite-password: ${(e as Error).message}`], issues.warnings);
    }
  }

  const config: Config = {
    ...value,
    baseUrlIsLocal: isLocalUrl(value.baseUrl),
    backend: { ...value.backend, signup, auth: { ...value.backend.auth, serverSecret: secret } },
  };
  return { config: deepFreeze(config), warnings: issues.warnings };
};

/**
 * The `service.restserver` object of the file; other top-level keys are warned
 * about. `source` prefixes the messages about the file itself.
 */
const readTree = async (file: string, source: string, env: Env, issues: Issues): Promise<RawObject> => {
  const path = resolve(file);
  let parsed: unknown;
  try {
    if (!(await stat(path)).isFile()) throw new Error('not a file');
    // strict: no `|` transforms or `@` includes; `${?VAR}` sees `env` only, never process.env;
    // `${java.io.tmpdir}` is the OS temp directory, as on the JVM
    const scope = { ...env, java: { io: { tmpdir: tmpdir() } } };
    parsed = await parse({ url: path, strict: true, env: false, scope });
  } catch (e) {
    throw new ConfigError([`${source}config file ${path}: ${(e as Error).message}`]);
  }
  if (parsed === undefined || parsed === null) return {};
  if (!isObject(parsed)) throw new ConfigError([`${source}config file ${path}: expected an object at the top level`]);
  const service = parsed['service'];
  const outside = Object.keys(parsed).filter((k) => k !== 'service');
  if (isObject(service)) outside.push(...Object.keys(service).filter((k) => k !== 'restserver').map((k) => `service.${k}`));
  else if (service !== undefined) outside.push('service');
  const rename = isObject(parsed['sharry']) && 'restserver' in parsed['sharry'] ? `; rename sharry.restserver to ${ROOT}` : '';
  if (outside.length > 0) issues.warnings.push(`config file ${path}: keys outside ${ROOT} are ignored: ${outside.join(', ')}${rename}`);
  const rs: Raw | undefined = isObject(service) ? service['restserver'] : undefined;
  if (rs === undefined || isObject(rs)) return rs ?? {};
  issues.errors.push(`${ROOT}: expected an object, got ${JSON.stringify(rs)}`);
  return {};
};

/** `data-dir` from the environment, the file, or else `fallback` (the caller's default or the user's data folder). */
const resolveDataDir = (tree: RawObject, env: Env, fallback: string, issues: Issues): string => {
  const configured = env['SERVICE_DATA_DIR'] ?? tree['data-dir'];
  if (typeof configured === 'string' && configured.trim() !== '') return resolve(configured);
  if (configured !== undefined && configured !== null && configured !== '')
    issues.errors.push(`${ROOT}.data-dir: expected a directory, got ${JSON.stringify(configured)}`);
  return resolve(fallback);
};

/** Freezes `value` and everything reachable from it (typed arrays cannot be frozen and are left as they are). */
const deepFreeze = <T>(value: T): T => {
  if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value) || Object.isFrozen(value)) return value;
  for (const v of Object.values(value)) deepFreeze(v);
  return Object.freeze(value);
};
