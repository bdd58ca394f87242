// settings.json holds the SMTP and music-player passwords and was written with the
// umask's mode (0644 as a rule): readable by every local user. It is written 0600,
// and a file an older version left readable is made private when Pier opens it.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Conf from 'conf';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSettings, type DesktopSettings } from '../../../main/desktop-settings.js';
import { settingsFileStore, SETTINGS_STORE_OPTIONS, type SecretBox } from '../../../main/settings-file.js';

/**
 * The store main/ uses, on conf: electron-store is conf with the user-data folder as
 * `cwd` and `name` as `configName`, and cannot be loaded without Electron.
 */
const electronSettingsStore = ({ cwd }: { cwd: string }) => {
  const { name, ...options } = SETTINGS_STORE_OPTIONS;
  return settingsFileStore(new Conf<Record<string, unknown>>({ ...options, configName: name, cwd }));
};

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const mode = (p: string) => statSync(p).mode & 0o777;

describe.runIf(process.platform !== 'win32')('settings.json', () => {
  it('is written 0600, whatever the umask', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pier-settings-'));
    dirs.push(dir);
    const umask = process.umask(0);
    try {
      const store = electronSettingsStore({ cwd: dir });
      store.write({ ...defaultSettings(), mail: { ...defaultSettings().mail, password: 'smtp-secret' } });
      expect(store.path).toBe(join(dir, 'settings.json'));
      expect(mode(store.path)).toBe(0o600);
      expect(store.read()).toMatchObject({ mail: { password: 'smtp-secret' } });
    } finally {
      process.umask(umask);
    }
  });

  it('left readable by an older version, is made 0600 when opened', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pier-settings-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'settings.json'), JSON.stringify({ version: 1, port: 8081 }));
    chmodSync(join(dir, 'settings.json'), 0o644);
    const store = electronSettingsStore({ cwd: dir });
    expect(mode(store.path)).toBe(0o600);
    expect(store.read()).toMatchObject({ port: 8081 });
  });
});

/**
 * Stands in for Electron's safeStorage, which cannot run here: a real cipher (AES-GCM
 * with a key of this "machine"), so a wrong key or damaged data throws as it does.
 */
const cipherBox = (key = randomBytes(32), available = true): SecretBox => ({
  isEncryptionAvailable: () => available,
  encryptString(plain) {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', key, iv);
    const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
    return Buffer.concat([iv, c.getAuthTag(), body]);
  },
  decryptString(data) {
    const d = createDecipheriv('aes-256-gcm', key, data.subarray(0, 12));
    d.setAuthTag(data.subarray(12, 28));
    return Buffer.concat([d.update(data.subarray(28)), d.final()]).toString('utf8');
  },
});

describe('stored passwords', () => {
  const withSecrets = () => ({
    ...defaultSettings(),
    mail: { ...defaultSettings().mail, password: 'smtp-secret' },
    invitePassword: 'invite-secret-0123456789',
    playerConnections: [{ id: 'kitchen', title: 'Kitchen', host: 'pi', port: 6600, password: 'mpd-secret' }],
  });
  const conf = (dir: string) => {
    const { name, ...options } = SETTINGS_STORE_OPTIONS;
    return new Conf<Record<string, unknown>>({ ...options, configName: name, cwd: dir });
  };

  it('are encrypted by the system key store in settings.json, and read back', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pier-settings-'));
    dirs.push(dir);
    const box = cipherBox();
    settingsFileStore(conf(dir), box).write(withSecrets());
    const text = readFileSync(join(dir, 'settings.json'), 'utf8');
    for (const secret of ['smtp-secret', 'invite-secret', 'mpd-secret']) expect(text).not.toContain(secret);
    expect(text).toMatch(/"password": "safe:[A-Za-z0-9+/=]+"/);
    expect(settingsFileStore(conf(dir), box).read()).toMatchObject({
      mail: { password: 'smtp-secret' },
      invitePassword: 'invite-secret-0123456789',
      playerConnections: [{ password: 'mpd-secret' }],
    });
  });

  it('that cannot be decrypted any more are dropped with a warning, the rest kept', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pier-settings-'));
    dirs.push(dir);
    settingsFileStore(conf(dir), cipherBox()).write(withSecrets());
    const warnings: string[] = [];
    const read = settingsFileStore(conf(dir), cipherBox(), (w) => warnings.push(w)).read();
    expect(read).toMatchObject({ mail: { password: '', host: '' }, playerConnections: [{ id: 'kitchen', password: '' }] });
    expect(warnings.length).toBeGreaterThan(0);
  });

  it('stay as they are without a key store (the file is 0600), and a clear one is encrypted at the next write', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pier-settings-'));
    dirs.push(dir);
    settingsFileStore(conf(dir), cipherBox(randomBytes(32), false)).write(withSecrets());
    expect(readFileSync(join(dir, 'settings.json'), 'utf8')).toContain('"smtp-secret"');
    const box = cipherBox();
    const store = settingsFileStore(conf(dir), box);
    const read = store.read() as DesktopSettings;
    expect(read.mail.password).toBe('smtp-secret');
    store.write(read);
    expect(readFileSync(join(dir, 'settings.json'), 'utf8')).not.toContain('smtp-secret');
  });
});
