// `npm run typecheck` starts with `node scripts/api-types.mjs --check`: the committed client
// API types (renderer/src/api/schema.d.ts) must be what server/openapi.yml generates. Here
// the script runs for real on a scratch copy of the two files, so the repository is never edited.
import { spawnSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const repo = join(import.meta.dirname, '..', '..', '..');
const files = ['scripts/api-types.mjs', 'server/openapi.yml', 'renderer/src/api/schema.d.ts'];

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pier-api-types-test-'));
  for (const f of files) {
    await mkdir(join(dir, f, '..'), { recursive: true });
    await copyFile(join(repo, f), join(dir, f));
  }
  await symlink(join(repo, 'node_modules'), join(dir, 'node_modules'), 'dir');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const check = () => spawnSync(process.execPath, [join(dir, 'scripts/api-types.mjs'), '--check'], { encoding: 'utf8' });

describe('the API types drift check', () => {
  it('passes when the committed file is what the spec generates', () => {
    const r = check();
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('fails, naming the command to run, when the spec changed and the file was not regenerated', async () => {
    const spec = join(dir, 'server/openapi.yml');
    const text = await readFile(spec, 'utf8');
    expect(text).toContain('        passwordMinLength:');
    await writeFile(spec, text.replace('        passwordMinLength:', '        passwordMaxLength:'));
    const r = check();
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('renderer/src/api/schema.d.ts does not match server/openapi.yml; run `npm run gen:api-types`');
  });

  it('fails when the generated file is missing', async () => {
    await rm(join(dir, 'renderer/src/api/schema.d.ts'));
    expect(check().status).toBe(1);
  });

  it('the generator brings the file up to date, and the check then passes', async () => {
    const spec = join(dir, 'server/openapi.yml');
    await writeFile(spec, (await readFile(spec, 'utf8')).replace('        passwordMinLength:', '        passwordMaxLength:'));
    const gen = spawnSync(process.execPath, [join(dir, 'scripts/api-types.mjs')], { encoding: 'utf8' });
    expect(gen.status).toBe(0);
    expect(await readFile(join(dir, 'renderer/src/api/schema.d.ts'), 'utf8')).toContain('passwordMaxLength?: number;');
    expect(check().status).toBe(0);
  });
});
