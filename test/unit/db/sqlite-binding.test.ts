// The desktop app's development start runs the server under Electron, whose ABI differs
// from Node's: it names an Electron build of better-sqlite3 in PIER_SQLITE_BINDING, and
// the tests and the headless server keep loading the Node build from node_modules.
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../server/db/connect.js';

const nodeBuild = join(dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json')), 'build', 'Release', 'better_sqlite3.node');
const memory = { url: 'jdbc:sqlite::memory:', user: '', password: '' };

describe('PIER_SQLITE_BINDING', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pier-binding-'));
  });
  afterEach(() => {
    delete process.env['PIER_SQLITE_BINDING'];
    rmSync(dir, { recursive: true, force: true });
  });

  it.runIf(process.platform === 'linux')('loads the SQLite driver from the file it names', async () => {
    const copy = join(dir, 'better_sqlite3.node');
    copyFileSync(nodeBuild, copy);
    process.env['PIER_SQLITE_BINDING'] = copy;
    const { db, close } = await openDatabase(memory);
    try {
      expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows).toEqual([{ one: 1 }]);
      expect(readFileSync('/proc/self/maps', 'utf8')).toContain(copy);
    } finally {
      await close();
    }
  });

  it('refuses a file that does not exist, or a relative path, naming the variable', async () => {
    process.env['PIER_SQLITE_BINDING'] = join(dir, 'missing.node');
    await expect(openDatabase(memory)).rejects.toThrow(/PIER_SQLITE_BINDING .*missing\.node.* does not exist/);
    process.env['PIER_SQLITE_BINDING'] = 'build/better_sqlite3.node';
    await expect(openDatabase(memory)).rejects.toThrow(/PIER_SQLITE_BINDING .* absolute path/);
  });

  it('is ignored when empty', async () => {
    process.env['PIER_SQLITE_BINDING'] = '';
    const { close } = await openDatabase(memory);
    await close();
  });
});
