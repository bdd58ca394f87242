// `npm run dist:desktop` used to leave node_modules with better-sqlite3 built for Electron
// (electron-builder's npmRebuild rebuilds in place), and `npm test` then failed with
// NODE_MODULE_VERSION. The script puts the Node builds back, whatever packaging did.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keepNodeBuilds, nativeModuleDirs } from '../../../scripts/dist-desktop.mjs';

let root: string;
const write = (path: string, text: string) => {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
};
const addon = () => join(root, 'node_modules', 'native', 'build', 'Release', 'native.node');

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'pier-dist-'));
  write(join(root, 'package.json'), JSON.stringify({ dependencies: { native: '1', plain: '1' }, devDependencies: { tool: '1' } }));
  write(join(root, 'node_modules', 'native', 'package.json'), JSON.stringify({ name: 'native', dependencies: { nested: '1' } }));
  write(join(root, 'node_modules', 'native', 'binding.gyp'), '{}');
  write(addon(), 'built for node');
  write(join(root, 'node_modules', 'native', 'node_modules', 'nested', 'package.json'), JSON.stringify({ name: 'nested' }));
  write(join(root, 'node_modules', 'native', 'node_modules', 'nested', 'binding.gyp'), '{}');
  write(join(root, 'node_modules', 'plain', 'package.json'), JSON.stringify({ name: 'plain' }));
  write(join(root, 'node_modules', 'tool', 'package.json'), JSON.stringify({ name: 'tool' }));
  write(join(root, 'node_modules', 'tool', 'binding.gyp'), '{}');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** What electron-builder's rebuild does to a native module: a new build in place. */
const rebuildInPlace = () => {
  write(addon(), 'built for electron');
  write(join(root, 'node_modules', 'native', 'build', 'Release', 'obj', 'extra.o'), '');
  write(join(root, 'node_modules', 'native', 'node_modules', 'nested', 'build', 'Release', 'nested.node'), 'built for electron');
};

describe('npm run dist:desktop', () => {
  it('runs electron-builder through scripts/dist-desktop.mjs', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts['dist:desktop']).toMatch(/&& node scripts\/dist-desktop\.mjs$/);
  });

  it('finds the native modules among the production dependencies, nested ones too', () => {
    expect(nativeModuleDirs(root).sort()).toEqual([join(root, 'node_modules', 'native'), join(root, 'node_modules', 'native', 'node_modules', 'nested')]);
  });

  it('puts the Node build of every native module back after packaging rebuilt it in place', async () => {
    expect(await keepNodeBuilds(root, async () => (rebuildInPlace(), 0))).toBe(0);
    expect(readFileSync(addon(), 'utf8')).toBe('built for node');
    expect(existsSync(join(root, 'node_modules', 'native', 'build', 'Release', 'obj'))).toBe(false);
    expect(existsSync(join(root, 'node_modules', 'native', 'node_modules', 'nested', 'build'))).toBe(false);
    expect(existsSync(join(root, '.tmp', 'dist-node-builds'))).toBe(false);
  });

  it('puts them back when packaging fails too', async () => {
    await expect(
      keepNodeBuilds(root, async () => {
        rebuildInPlace();
        throw new Error('no network');
      }),
    ).rejects.toThrow('no network');
    expect(readFileSync(addon(), 'utf8')).toBe('built for node');
  });

  it('first puts back the Node builds that a run killed during packaging had set aside', async () => {
    const script = pathToFileURL(join(import.meta.dirname, '..', '..', '..', 'scripts', 'dist-desktop.mjs')).href;
    const killed = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { writeFileSync } from 'node:fs';
         const { keepNodeBuilds } = await import(${JSON.stringify(script)});
         await keepNodeBuilds(${JSON.stringify(root)}, async () => {
           writeFileSync(${JSON.stringify(addon())}, 'built for electron');
           process.kill(process.pid, 'SIGKILL');
         });`,
      ],
      { encoding: 'utf8' },
    );
    expect(killed.signal).toBe('SIGKILL');
    expect(readFileSync(addon(), 'utf8')).toBe('built for electron');
    let seen = '';
    await keepNodeBuilds(root, async () => ((seen = readFileSync(addon(), 'utf8')), 0));
    expect(seen).toBe('built for node');
    expect(readFileSync(addon(), 'utf8')).toBe('built for node');
  });
});
