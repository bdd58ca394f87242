// The data directory holds the token-signing secret, the database and received files.
// It used to default to `<tmp>/pier`, a place every local user can write to: a
// `server-secret` planted there before the first start was accepted (and tokens, an
// admin's included, could be forged with it), and the database and files were
// readable by everyone. The default is now the user's own data folder, created 0700;
// a directory or secret file that another user owns or that others can write is
// refused at start-up, and what Pier creates there is private (0600 / 0700).
import { chmodSync, chownSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, defaultDataDir, loadConfig, SECRET_FILE } from '../../../server/config/index.js';
import { tempDir } from './helpers.js';

const posix = process.platform !== 'win32';
const SECRET = `hex:${'ab'.repeat(32)}`;
const mode = (path: string) => statSync(path).mode & 0o7777;

/** The ConfigError of a load (fails the test when there is none). */
const refused = async (options: Parameters<typeof loadConfig>[0]): Promise<ConfigError> => {
  const e: unknown = await loadConfig(options).then(
    () => new Error('expected the configuration to be refused'),
    (err: unknown) => err,
  );
  if (e instanceof ConfigError) return e;
  throw e;
};

describe('the default data directory', () => {
  it('is the user’s own data folder on each platform, never the shared temp dir', () => {
    expect(defaultDataDir({ HOME: '/home/ann' }, 'linux')).toBe('/home/ann/.local/share/pier');
    expect(defaultDataDir({ HOME: '/home/ann', XDG_DATA_HOME: '/data/ann' }, 'linux')).toBe('/data/ann/pier');
    // the XDG spec: a relative XDG_DATA_HOME is invalid and ignored
    expect(defaultDataDir({ HOME: '/home/ann', XDG_DATA_HOME: 'rel/dir' }, 'linux')).toBe('/home/ann/.local/share/pier');
    expect(defaultDataDir({ HOME: '/home/ann' }, 'freebsd')).toBe('/home/ann/.local/share/pier');
    expect(defaultDataDir({ HOME: '/Users/ann' }, 'darwin')).toBe('/Users/ann/Library/Application Support/Pier');
    expect(defaultDataDir({ LOCALAPPDATA: 'C:\\Users\\ann\\AppData\\Local' }, 'win32')).toBe('C:\\Users\\ann\\AppData\\Local\\Pier');
    expect(defaultDataDir({ USERPROFILE: 'C:\\Users\\ann' }, 'win32')).toBe('C:\\Users\\ann\\AppData\\Local\\Pier');
  });

  it.runIf(posix)('is used, created 0700, when none is configured, without a warning', async () => {
    const home = tempDir();
    const { config, warnings } = await loadConfig({ env: { HOME: home }, platform: 'linux' });
    const dir = join(home, '.local', 'share', 'pier');
    expect(config.dataDir).toBe(dir);
    expect(warnings.filter((w) => w.includes('data-dir'))).toEqual([]);
    expect(mode(dir)).toBe(0o700);
    expect(mode(join(dir, SECRET_FILE))).toBe(0o600);
  });
});

describe.runIf(posix)('a data directory others could write to', () => {
  let umask: number;
  beforeEach(() => {
    // the modes Pier sets must not depend on the process umask
    umask = process.umask(0);
  });
  afterEach(() => {
    process.umask(umask);
  });

  it('refuses a secret file that others can write (one planted there before the first start)', async () => {
    const dataDir = tempDir();
    writeFileSync(join(dataDir, SECRET_FILE), `hex:${'00'.repeat(32)}\n`, { mode: 0o666 });
    chmodSync(join(dataDir, SECRET_FILE), 0o666);
    const e = await refused({ defaults: { dataDir } });
    expect(e.errors.join('\n')).toMatch(/server-secret.*written by group or others.*0666/);
  });

  it('refuses a secret file owned by another user', async () => {
    const dataDir = tempDir();
    writeFileSync(join(dataDir, SECRET_FILE), `hex:${'00'.repeat(32)}\n`, { mode: 0o600 });
    chownSync(join(dataDir, SECRET_FILE), 65534, 65534);
    const e = await refused({ defaults: { dataDir } });
    expect(e.errors.join('\n')).toMatch(/server-secret.*another user \(uid 65534\)/);
  });

  it('refuses a data directory that group or others can write, sticky or not', async () => {
    for (const bits of [0o777, 0o1777, 0o770]) {
      const dataDir = tempDir();
      chmodSync(dataDir, bits);
      const e = await refused({ defaults: { dataDir }, env: { SERVICE_BACKEND_AUTH_SERVER_SECRET: SECRET } });
      expect(e.errors, bits.toString(8)).toEqual([expect.stringMatching(/^service\.restserver\.data-dir: .*written by group or others/)]);
    }
  });

  it('refuses a data directory owned by another user, and one that is a file', async () => {
    const dataDir = tempDir();
    chownSync(dataDir, 65534, 65534);
    const e = await refused({ defaults: { dataDir }, env: { SERVICE_BACKEND_AUTH_SERVER_SECRET: SECRET } });
    expect(e.errors).toEqual([expect.stringMatching(/^service\.restserver\.data-dir: .*another user \(uid 65534\)/)]);

    const file = join(tempDir(), 'plain-file');
    writeFileSync(file, '');
    const f = await refused({ defaults: { dataDir: file } });
    expect(f.errors).toEqual([expect.stringMatching(/^service\.restserver\.data-dir: .*not a directory/)]);
  });

  it('creates a missing data directory 0700 and the secret 0600 whatever the umask', async () => {
    const dataDir = join(tempDir(), 'a', 'pier');
    await loadConfig({ defaults: { dataDir } });
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(join(dataDir, SECRET_FILE))).toBe(0o600);
  });

  it('makes an own secret file that others can read private again, with a warning', async () => {
    const dataDir = tempDir();
    const file = join(dataDir, SECRET_FILE);
    writeFileSync(file, `hex:${'cd'.repeat(32)}\n`);
    chmodSync(file, 0o644);
    const { config, warnings } = await loadConfig({ defaults: { dataDir } });
    expect(Buffer.from(config.backend.auth.serverSecret).toString('hex')).toBe('cd'.repeat(32));
    expect(mode(file)).toBe(0o600);
    expect(warnings).toEqual([expect.stringMatching(/server-secret.*0600/)]);
    expect(readFileSync(file, 'utf8')).toBe(`hex:${'cd'.repeat(32)}\n`);
  });

  it('accepts an own data directory others can only read (0755), as `mkdir -p` makes it', async () => {
    const dataDir = tempDir();
    chmodSync(dataDir, 0o755);
    const { config } = await loadConfig({ defaults: { dataDir } });
    expect(config.dataDir).toBe(dataDir);
    mkdirSync(join(dataDir, 'x'));
  });
});
