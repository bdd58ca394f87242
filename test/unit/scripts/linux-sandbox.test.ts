// The development start's check for a sandbox helper Ubuntu would abort on.
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sandboxProblem, USERNS_RESTRICTION } from '../../../scripts/linux-sandbox.mjs';

let dir: string | undefined;
afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

const helper = (): string => {
  dir = mkdtempSync(join(tmpdir(), 'pier-sandbox-'));
  const path = join(dir, 'chrome-sandbox');
  writeFileSync(path, '', { mode: 0o755 });
  return path;
};
const restricted = (value: string) => (path: string) => {
  if (path !== USERNS_RESTRICTION) throw new Error(`unexpected read of ${path}`);
  return value;
};

describe('the sandbox helper check', () => {
  it('says the one-line fix when namespaces are restricted and the helper is not root-owned 4755', () => {
    const sandbox = helper();
    const message = sandboxProblem(sandbox, { platform: 'linux', uid: 1000, read: restricted('1\n'), stat: statSync });
    expect(message).toBe(
      `This system restricts user namespaces, so Electron's sandbox needs its helper set up once: sudo chown root:root '${sandbox}' && sudo chmod 4755 '${sandbox}'`,
    );
  });

  it('is quiet where nothing would abort', () => {
    const sandbox = helper();
    expect(sandboxProblem(sandbox, { platform: 'linux', uid: 1000, read: restricted('0\n'), stat: statSync })).toBeNull();
    expect(sandboxProblem(sandbox, { platform: 'darwin', uid: 1000, read: restricted('1'), stat: statSync })).toBeNull();
    // as root Electron runs with --no-sandbox anyway
    expect(sandboxProblem(sandbox, { platform: 'linux', uid: 0, read: restricted('1'), stat: statSync })).toBeNull();
    // a kernel without the switch
    expect(sandboxProblem(sandbox, { platform: 'linux', uid: 1000, read: () => { throw new Error('ENOENT'); }, stat: statSync })).toBeNull();
    // a helper set up as asked
    const ok = { uid: 0, mode: 0o104755 };
    expect(sandboxProblem(sandbox, { platform: 'linux', uid: 1000, read: restricted('1'), stat: () => ok })).toBeNull();
  });
});
