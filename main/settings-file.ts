/**
 * settings.json, the desktop settings on disk (electron-store in the app). It is the
 * user's alone: written 0600 whatever the umask, and a file an older version left
 * readable is made 0600 when it is opened. The SMTP, music-player and invite
 * passwords are kept encrypted by the system's key store (Electron's `safeStorage`:
 * Keychain, DPAPI, libsecret or KWallet) when it has one, as `safe:<base64>`; a
 * password written before, in clear, is encrypted at the next write. One that can no
 * longer be decrypted (another machine, a reset key store) is dropped with a warning,
 * to be entered again. Plain Node: electron-store and safeStorage are passed in
 * (index.ts), conf and a stand-in cipher in tests.
 */
import { chmodSync } from 'node:fs';
import type { DesktopSettings, SettingsStore } from './desktop-settings.js';

/** Electron's `safeStorage` (synchronous API), or what stands for it. */
export interface SecretBox {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

const SAFE = 'safe:';

type Passwords = { get(s: Record<string, unknown>): string[]; set(s: Record<string, unknown>, values: string[]): void };

/** The password fields of stored settings, in a fixed order. */
const passwords: Passwords = {
  get(s) {
    const mail = s['mail'] as Record<string, unknown> | undefined;
    const players = Array.isArray(s['playerConnections']) ? (s['playerConnections'] as Record<string, unknown>[]) : [];
    return [mail?.['password'], s['invitePassword'], ...players.map((p) => p?.['password'])].map((v) => (typeof v === 'string' ? v : ''));
  },
  set(s, values) {
    const mail = s['mail'] as Record<string, unknown> | undefined;
    if (mail && typeof mail['password'] === 'string') mail['password'] = values[0];
    if (typeof s['invitePassword'] === 'string') s['invitePassword'] = values[1];
    const players = Array.isArray(s['playerConnections']) ? (s['playerConnections'] as Record<string, unknown>[]) : [];
    players.forEach((p, i) => {
      if (p && typeof p['password'] === 'string') p['password'] = values[2 + i];
    });
  },
};

export const SETTINGS_FILE_MODE = 0o600;

/** The electron-store options of settings.json (conf's, with `name` for `configName`). */
export const SETTINGS_STORE_OPTIONS = {
  name: 'settings',
  // A corrupt file is replaced by an empty one; migrateSettings then starts from the defaults.
  clearInvalidConfig: true,
  configFileMode: SETTINGS_FILE_MODE,
} as const;

/** What is used of an electron-store (or conf) instance. */
export interface JsonFileStore {
  readonly path: string;
  readonly size: number;
  store: Record<string, unknown>;
}

/** The settings store over `file`, whose file is made private first. */
export const settingsFileStore = (file: JsonFileStore, box?: SecretBox, warn: (message: string) => void = () => {}): SettingsStore & { path: string } => {
  makePrivate(file.path);
  const encrypting = () => box !== undefined && box.isEncryptionAvailable();
  const seal = (plain: string) => (plain === '' || !encrypting() ? plain : SAFE + box!.encryptString(plain).toString('base64'));
  const open = (stored: string) => {
    if (!stored.startsWith(SAFE)) return stored;
    try {
      if (!encrypting()) throw new Error('no key store');
      return box!.decryptString(Buffer.from(stored.slice(SAFE.length), 'base64'));
    } catch {
      warn('A stored password could not be decrypted (the system key store changed): enter it again in the settings.');
      return '';
    }
  };
  return {
    path: file.path,
    read: () => {
      if (file.size === 0) return undefined;
      const raw = structuredClone(file.store);
      passwords.set(raw, passwords.get(raw).map(open));
      return raw;
    },
    write: (value: DesktopSettings) => {
      const raw = structuredClone(value) as unknown as Record<string, unknown>;
      passwords.set(raw, passwords.get(raw).map(seal));
      file.store = raw;
    },
  };
};

const makePrivate = (path: string): void => {
  // Windows has no POSIX modes; the user-data folder is private through its ACL
  if (process.platform === 'win32') return;
  try {
    chmodSync(path, SETTINGS_FILE_MODE);
  } catch (e) {
    // not written yet: conf creates it with SETTINGS_FILE_MODE
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
};
