/**
 * First start: the admin account (chosen, or with a generated password shown once)
 * and the received-files folder, then the server starts with them. No constant
 * password exists anywhere: the server creates the account from what is given here.
 */
import { randomBytes } from 'node:crypto';
import { isAbsolute, join } from 'node:path';
import type { SettingsError } from '../preload/desktop-api.js';
import type { SetupDefaults, SetupInput, SetupResult } from '../preload/setup-api.js';
import type { DesktopSettings, Settings } from './desktop-settings.js';
import { noArgs, oneArg, pageRule, SETUP_CHANNELS, type Channel, type ChannelHandler } from './ipc.js';
import type { ServerHost } from './server-host.js';

const IDENT = /^[a-z0-9\-_@.]+$/;
export const MIN_PASSWORD = 8;

/** True until an admin account and a received-files folder are set. */
export const needsFirstStart = (s: DesktopSettings): boolean => s.account === null || s.receivedFolder === '';

/** 20 random URL-safe characters (120 bits). */
export const generatePassword = (): string => randomBytes(15).toString('base64url');

/** Suggestions: the system user's name as login (when it is a valid login), a folder in the documents folder. */
export const setupDefaults = (userName: string, documents: string, platform: NodeJS.Platform = process.platform): SetupDefaults => {
  const name = userName.toLowerCase();
  return {
    login: IDENT.test(name) && name.length <= 64 ? name : 'admin',
    receivedFolder: join(documents, 'Pier', 'Received files'),
    firewallNote: platform === 'win32',
  };
};

/** Every problem of the first-start form. */
export const validateSetup = (input: unknown): SettingsError[] => {
  const e: SettingsError[] = [];
  const v = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  const { login, password, receivedFolder } = v;
  if (typeof login !== 'string' || !IDENT.test(login.toLowerCase()) || login.length > 254)
    e.push({ field: 'login', message: 'Use letters, digits and - _ @ . only' });
  if (password !== null && (typeof password !== 'string' || password.length < MIN_PASSWORD || password.length > 1024))
    e.push({ field: 'password', message: `Use at least ${MIN_PASSWORD} characters` });
  if (typeof receivedFolder !== 'string' || !isAbsolute(receivedFolder) || receivedFolder.length > 4096)
    e.push({ field: 'receivedFolder', message: 'Choose a folder' });
  const extra = Object.keys(v).filter((k) => !['login', 'password', 'receivedFolder'].includes(k));
  for (const k of extra) e.push({ field: k, message: 'is not a field of this form' });
  return e;
};

export interface FirstStartDeps {
  settings: Settings;
  host: ServerHost;
  /** sign-in through the server's API (pier-api.ts `login`) */
  login(baseUrl: string, account: string, password: string): Promise<{ id: string; login: string; admin: boolean }>;
}

/**
 * Starts the server with the chosen folder and creates the admin account (when the
 * data folder has no account yet), signs in to check it, and remembers the account.
 * When the data folder already has accounts, the login and password of one of its
 * admins are asked for instead. The generated password is in the answer, once.
 */
export const completeFirstStart = async (input: SetupInput, deps: FirstStartDeps): Promise<SetupResult> => {
  const errors = validateSetup(input);
  if (errors.length > 0) return { success: false, errors };
  const login = input.login.toLowerCase();
  const password = input.password ?? generatePassword();
  const next: DesktopSettings = { ...deps.settings.get(), receivedFolder: input.receivedFolder };

  const state = await deps.host.start(next, { login, password });
  if (state.kind !== 'running') {
    const reason = state.kind === 'error' ? state.reason : 'the server did not start';
    return { success: false, errors: [{ field: '', message: `Pier could not start: ${reason}` }] };
  }
  let account: { id: string; login: string; admin: boolean };
  try {
    account = await deps.login(state.localUrl, login, password);
  } catch {
    return {
      success: false,
      errors: [{ field: 'login', message: 'This data folder already has accounts: enter the login and password of one of its admins.' }],
    };
  }
  if (!account.admin) return { success: false, errors: [{ field: 'login', message: 'This account is not an admin.' }] };
  deps.settings.replace({ ...next, account: { id: account.id, login: account.login } });
  return { success: true, login: account.login, generatedPassword: input.password === null ? password : null };
};

export interface SetupHandlerDeps extends FirstStartDeps {
  /** the webContents ids of the first-start windows */
  setupIds(): ReadonlySet<number>;
  /** the first-start page's file URL */
  pageUrl: string;
  defaults(): SetupDefaults;
  pickFolder(): Promise<string | null>;
  finish(): Promise<void>;
}

/**
 * The first-start window's channels. The received folder is the suggested one or one
 * the folder dialog returned: never a path the page made up.
 */
export const setupHandlers = (deps: SetupHandlerDeps): Partial<Record<Channel, ChannelHandler>> => {
  const rule = pageRule(deps.setupIds, deps.pageUrl);
  const S = SETUP_CHANNELS;
  const chosen = new Set<string>();
  return {
    [S.defaults]: { rule, check: noArgs, run: () => deps.defaults() },
    [S.pickFolder]: {
      rule,
      check: noArgs,
      run: async () => {
        const folder = await deps.pickFolder();
        if (folder !== null) chosen.add(folder);
        return folder;
      },
    },
    [S.complete]: {
      rule,
      check: oneArg('object'),
      run: async (raw): Promise<SetupResult> => {
        const input = raw as SetupInput;
        if (input.receivedFolder !== deps.defaults().receivedFolder && !chosen.has(input.receivedFolder))
          return { success: false, errors: [{ field: 'receivedFolder', message: 'Choose the folder with the button' }] };
        return completeFirstStart(input, deps);
      },
    },
    [S.finish]: { rule, check: noArgs, run: () => deps.finish() },
  };
};
