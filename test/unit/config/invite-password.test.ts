/**
 * Regression: `backend.signup.invite-password` defaulted to the constant
 * `generate-invite` (Sharry's example), so on every install left at the
 * default anyone who read the documentation could create invitation keys and
 * sign up in invite mode. Without a password of the operator's own, one is
 * generated once per install and kept in `<data-dir>/invite-password` (0600);
 * the published example counts as not set.
 */
import { chmodSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config/index.js';
import { tempDir, writeTemp } from './helpers.js';

const invite = (password?: string) =>
  writeTemp('pier.conf', JSON.stringify({ service: { restserver: { backend: { signup: { mode: 'invite', ...(password === undefined ? {} : { 'invite-password': password }) } } } } }));

describe('the invitation password', () => {
  it('is generated once per install in invite mode, kept private, and the same at the next start', async () => {
    const dataDir = tempDir();
    const first = await loadConfig({ file: invite(), defaults: { dataDir } });
    const password = first.config.backend.signup.invitePassword;
    expect(password).not.toBe('generate-invite');
    expect(password.length).toBeGreaterThanOrEqual(20);
    expect(first.warnings.join('\n')).toContain(join(dataDir, 'invite-password'));
    if (process.platform !== 'win32') expect(statSync(join(dataDir, 'invite-password')).mode & 0o777).toBe(0o600);
    expect((await loadConfig({ file: invite(), defaults: { dataDir } })).config.backend.signup.invitePassword).toBe(password);
    expect((await loadConfig({ file: invite(), defaults: { dataDir: tempDir() } })).config.backend.signup.invitePassword).not.toBe(password);
  });

  it('ignores the published example password, and keeps one the operator set', async () => {
    const dataDir = tempDir();
    const example = await loadConfig({ file: invite('generate-invite'), defaults: { dataDir } });
    expect(example.config.backend.signup.invitePassword).not.toBe('generate-invite');
    expect(example.warnings.join('\n')).toMatch(/published example password/);
    expect((await loadConfig({ file: invite('let-me-invite'), defaults: { dataDir } })).config.backend.signup.invitePassword).toBe('let-me-invite');
  });

  it('refuses a password file that others can write', async () => {
    if (process.platform === 'win32') return;
    const dataDir = tempDir();
    writeFileSync(join(dataDir, 'invite-password'), 'planted\n', { mode: 0o666 });
    chmodSync(join(dataDir, 'invite-password'), 0o666);
    await expect(loadConfig({ file: invite(), defaults: { dataDir } })).rejects.toThrow(/invite-password/);
  });
});
