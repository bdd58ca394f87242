import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { electronSqliteBinding, electronSqliteBuildDir } from '../../../main/native-build.js';

describe("the development start's Electron build of better-sqlite3", () => {
  let appRoot: string;
  beforeEach(() => {
    appRoot = mkdtempSync(join(tmpdir(), 'pier-native-'));
    mkdirSync(join(appRoot, 'node_modules', 'better-sqlite3'), { recursive: true });
    writeFileSync(join(appRoot, 'node_modules', 'better-sqlite3', 'package.json'), JSON.stringify({ name: 'better-sqlite3', version: '12.11.1' }));
  });
  afterEach(() => rmSync(appRoot, { recursive: true, force: true }));

  it('lives in .electron-native, in a folder named by the better-sqlite3 and Electron versions, platform and architecture', () => {
    expect(electronSqliteBuildDir(appRoot, '41.7.1', 'linux', 'x64')).toBe(join(appRoot, '.electron-native', 'better-sqlite3-12.11.1-electron-41.7.1-linux-x64'));
  });

  it('is named for the server when its file exists, else null (a packaged app, a failed build, or plain Node)', () => {
    expect(electronSqliteBinding(appRoot, '41.7.1')).toBeNull();
    const release = join(electronSqliteBuildDir(appRoot, '41.7.1')!, 'build', 'Release');
    mkdirSync(release, { recursive: true });
    writeFileSync(join(release, 'better_sqlite3.node'), '');
    expect(electronSqliteBinding(appRoot, '41.7.1')).toBe(join(release, 'better_sqlite3.node'));
    expect(electronSqliteBinding(appRoot, '41.7.2')).toBeNull();
    expect(electronSqliteBinding(appRoot, undefined)).toBeNull();
    rmSync(join(appRoot, 'node_modules'), { recursive: true });
    expect(electronSqliteBinding(appRoot, '41.7.1')).toBeNull();
  });
});
