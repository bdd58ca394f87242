import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

describe('electron-builder.yml', () => {
  const cfg = parse(readFileSync('electron-builder.yml', 'utf8')) as Record<string, Record<string, unknown>>;

  it('builds Linux AppImage and deb, Windows nsis and macOS dmg with the app id and icons from resources/', () => {
    expect(cfg['appId']).toBe('app.pier.desktop');
    expect(cfg['linux']!['target']).toEqual(['AppImage', 'deb']);
    expect(cfg['win']!['target']).toEqual(['nsis']);
    expect(cfg['mac']!['target']).toEqual(['dmg']);
    for (const os of ['linux', 'win', 'mac']) expect(existsSync(String(cfg[os]!['icon']))).toBe(true);
  });

  it('rebuilds native modules for Electron and packs what the app loads at run time', () => {
    expect(cfg['npmRebuild']).toBe(true);
    expect(cfg['asarUnpack']).toEqual(expect.arrayContaining([expect.stringContaining('better-sqlite3')]));
    expect(cfg['files']).toEqual(expect.arrayContaining(['dist/**/*', 'resources/**/*']));
    for (const f of ['resources/tray.png', 'resources/icon.png', 'resources/setup/index.html', 'resources/setup/setup.js']) expect(existsSync(f)).toBe(true);
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { main: string };
    expect(pkg.main).toBe('dist/main/index.js');
  });
});
