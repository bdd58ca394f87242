import { describe, expect, it } from 'vitest';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeSecret, loadConfig, resolveServerSecret, SECRET_FILE } from '../../../server/config/index.js';
import { tempDir } from './helpers.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('server secret', () => {
  it('is generated once and survives a second load', async () => {
    const dataDir = join(tempDir(), 'not-yet-created');
    const first = await loadConfig({ defaults: { dataDir } });
    const second = await loadConfig({ defaults: { dataDir } });
    expect(first.config.backend.auth.serverSecret).toHaveLength(32);
    expect(hex(second.config.backend.auth.serverSecret)).toBe(hex(first.config.backend.auth.serverSecret));
    const file = join(dataDir, SECRET_FILE);
    expect(readFileSync(file, 'utf8').trim()).toBe(`hex:${hex(first.config.backend.auth.serverSecret)}`);
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('differs between two data directories', async () => {
    const a = await loadConfig({ defaults: { dataDir: tempDir() } });
    const b = await loadConfig({ defaults: { dataDir: tempDir() } });
    expect(hex(a.config.backend.auth.serverSecret)).not.toBe(hex(b.config.backend.auth.serverSecret));
  });

  it('is the same for processes racing to create it', async () => {
    const dataDir = tempDir();
    const results = await Promise.all(Array.from({ length: 12 }, () => resolveServerSecret('', dataDir)));
    const secrets = new Set(results.map((r) => hex(r.secret)));
    expect(secrets.size).toBe(1);
    expect(readFileSync(join(dataDir, SECRET_FILE), 'utf8').trim()).toBe(`hex:${[...secrets][0]}`);
  });

  it('uses a configured hex: secret and writes no file', async () => {
    const dataDir = tempDir();
    const secret = 'ab'.repeat(32);
    const { config } = await loadConfig({ env: { SERVICE_BACKEND_AUTH_SERVER_SECRET: `hex:${secret}` }, defaults: { dataDir } });
    expect(hex(config.backend.auth.serverSecret)).toBe(secret);
    expect(() => statSync(join(dataDir, SECRET_FILE))).toThrow();
  });

  it('decodes b64: and plain UTF-8 secrets', () => {
    expect(hex(decodeSecret('b64:AAEC'))).toBe('000102');
    expect(Buffer.from(decodeSecret('pässword')).toString('utf8')).toBe('pässword');
    expect(() => decodeSecret('hex:abc')).toThrow(/hex/);
    expect(() => decodeSecret('b64:***')).toThrow(/base64/);
  });

  it('reads a secret file written by hand', async () => {
    const dataDir = tempDir();
    writeFileSync(join(dataDir, SECRET_FILE), 'b64:AAEC\n');
    const { secret, generated } = await resolveServerSecret('', dataDir);
    expect(hex(secret)).toBe('000102');
    expect(generated).toBe(false);
  });
});
