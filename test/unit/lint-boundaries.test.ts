// The import boundaries of STYLE.md are enforced by eslint.config.js. These tests lint
// small snippets as if they lived in server/, server/core/ and the web client's api/ and
// lib/ and check that each forbidden import (and each query outside a repository) is
// reported and the allowed ones are not.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const RULE = 'no-restricted-imports';

let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

/** Lints `code` as the file `relPath` and returns the lines reported by the boundary rule. */
async function boundaryHits(relPath: string, code: string, rule = RULE): Promise<number[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, relPath) });
  if (!result) throw new Error(`no lint result for ${relPath}`);
  const fatal = result.messages.filter((m) => m.fatal);
  expect(fatal, `parse errors in ${relPath}`).toEqual([]);
  return result.messages.filter((m) => m.ruleId === rule).map((m) => m.line);
}

/** One import per line, each used so that no other rule complains. */
function importLine(specifier: string, index: number): string {
  return `import * as m${index} from '${specifier}';\nexport const x${index} = m${index};\n`;
}

describe('server/ import boundaries', () => {
  const file = 'server/http/boundary-probe.ts';

  it.each([
    'electron',
    'electron/main',
    '../../main/index.js',
    '../../preload/index.js',
    '../../renderer/src/api/http.js',
    '../../main/server-host.js',
  ])('reports %s', async (specifier) => {
    expect(await boundaryHits(file, importLine(specifier, 0))).toEqual([1]);
  });

  it('reports a type-only import from electron', async () => {
    const code = "import type { App } from 'electron';\nexport type A = App;\n";
    expect(await boundaryHits(file, code)).toEqual([1]);
  });

  it('reports a re-export from main/', async () => {
    expect(await boundaryHits(file, "export * from '../../main/index.js';\n")).toEqual([1]);
  });

  it.each(['node:fs', 'express', 'ws', '@tus/server', '../core/shares/share.service.js', './renderer.js'])(
    'allows %s',
    async (specifier) => {
      expect(await boundaryHits(file, importLine(specifier, 0))).toEqual([]);
    },
  );
});

describe('server/core/ import boundaries', () => {
  const file = 'server/core/shares/boundary-probe.ts';

  it.each(['express', 'ws', '@tus/server', '@tus/server/dist/index.js', 'electron', '../../../renderer/src/main.js'])(
    'reports %s',
    async (specifier) => {
      expect(await boundaryHits(file, importLine(specifier, 0))).toEqual([1]);
    },
  );

  it('reports every forbidden import of one file, line by line', async () => {
    const code = ['express', 'node:path', 'ws', '../../../db/schema.js', '@tus/server'].map(importLine).join('');
    expect(await boundaryHits(file, code)).toEqual([1, 5, 9]);
  });

  it.each(['node:stream', '@tus/utils', '../../common/errors.js', '../aliases/alias.service.js'])(
    'allows %s',
    async (specifier) => {
      expect(await boundaryHits(file, importLine(specifier, 0))).toEqual([]);
    },
  );
});

// server/core/ could import the HTTP layer by a relative path (`../../http/...`), and
// server/player/, common/, config/ and db/ could import express and the HTTP layer: only
// the package names were refused, and only under core/.
describe('the layers below server/http/', () => {
  it.each([
    ['server/core/shares/boundary-probe.ts', '../../http/error-mapping.js'],
    ['server/core/shares/boundary-probe.ts', '../../http/send-download.js'],
    ['server/core/boundary-probe.ts', '../http/send-file.js'],
    ['server/core/shares/boundary-probe.ts', '../../app.js'],
    ['server/player/boundary-probe.ts', '../http/error-mapping.js'],
    ['server/player/protocol/boundary-probe.ts', '../../http/websocket.js'],
    ['server/player/boundary-probe.ts', 'express'],
    ['server/player/boundary-probe.ts', 'ws'],
    ['server/common/boundary-probe.ts', '../http/error-mapping.js'],
    ['server/common/boundary-probe.ts', 'express'],
    ['server/config/boundary-probe.ts', '../http/zones.js'],
    ['server/db/boundary-probe.ts', '@tus/server'],
  ])('%s reports %s', async (file, specifier) => {
    expect(await boundaryHits(file, importLine(specifier, 0))).toEqual([1]);
  });

  it.each([
    ['server/core/auth/login-modules/boundary-probe.ts', './http.module.js'],
    ['server/core/uploads/boundary-probe.ts', 'node:http'],
    ['server/player/boundary-probe.ts', '../common/errors.js'],
    ['server/player/covers/boundary-probe.ts', '../files/safe-path.js'],
    ['server/common/boundary-probe.ts', './result.js'],
  ])('%s allows %s', async (file, specifier) => {
    expect(await boundaryHits(file, importLine(specifier, 0))).toEqual([]);
  });
});

describe('queries only in repositories', () => {
  const TS_RULE = '@typescript-eslint/no-restricted-imports';
  const SYNTAX = 'no-restricted-syntax';
  const service = 'server/core/shares/boundary-probe.ts';
  const queries = [
    "import type { Kysely } from 'kysely';",
    "import type { Database } from '../../db/schema.js';",
    'export const q = async (db: Kysely<Database>) => {',
    "  await db.transaction().execute(async (tx) => { await tx.updateTable('shares').set({ name: null }).execute(); });",
    "  await db.insertInto('sent_mails').values({ id: '', account_id: '', recipients: 1, created: 0 }).execute();",
    "  await db.deleteFrom('shares').execute();",
    "  return db.selectFrom('shares').selectAll().execute();",
    '};',
  ].join('\n');

  it('reports every query a service builds, and not the transaction it opens', async () => {
    expect(await boundaryHits(service, queries, SYNTAX)).toEqual([4, 5, 6, 7]);
  });

  it.each(['server/http/routes/boundary-probe.ts', 'server/player/boundary-probe.ts'])('reports queries in %s', async (file) => {
    expect(await boundaryHits(file, queries, SYNTAX)).toEqual([4, 5, 6, 7]);
  });

  it.each(['server/core/shares/boundary-probe.repository.ts', 'server/core/stores/database.store.ts', 'server/db/boundary-probe.ts'])(
    'allows queries and their imports in %s',
    async (file) => {
      const code = "import { sql } from 'kysely';\nexport const one = sql`select 1`;\n" + queries.replace("import type { Kysely } from 'kysely';\n", '');
      const imports = [...(await boundaryHits(file, code, TS_RULE)), ...(await boundaryHits(file, code, SYNTAX))];
      expect(imports).toEqual([]);
    },
  );

  it('reports values of kysely and of the row helpers in a service, line by line', async () => {
    const code = ['kysely', '../../../db/schema.js', '../../common/errors.js', '../../../db/sql-helpers.js'].map(importLine).join('');
    expect(await boundaryHits(service, code, TS_RULE)).toEqual([1, 3, 7]);
  });

  it('allows the types that hold a database handle in a service', async () => {
    const code = "import type { Kysely, Transaction } from 'kysely';\nimport type { Database } from '../../db/schema.js';\nexport type D = [Kysely<Database>, Transaction<Database>];\n";
    expect(await boundaryHits(service, code, TS_RULE)).toEqual([]);
  });
});

describe('main/ import boundaries', () => {
  const TS_RULE = '@typescript-eslint/no-restricted-imports';

  it('allows electron, the server’s types and its process constants', async () => {
    const code =
      importLine('electron', 0) +
      "import type { ServerMessage } from '../server/hosted-protocol.js';\nexport type M = ServerMessage;\n" +
      importLine('../server/process/flags.js', 1);
    expect(await boundaryHits('main/server-host.ts', code, TS_RULE)).toEqual([]);
  });

  it.each(['../server/index.js', '../server/config/index.js', '../server/hosted.js'])('reports loading %s in the main process', async (specifier) => {
    expect(await boundaryHits('main/server-host.ts', importLine(specifier, 0), TS_RULE)).toEqual([1]);
  });
});

describe('web client import boundaries', () => {
  // The type-aware variant of the rule: it can let type-only imports through.
  const TS_RULE = '@typescript-eslint/no-restricted-imports';

  it.each(['../components/CopyButton.vue', '../views/HomeView.vue', '../composables/useFormat', '../stores/auth'])(
    'api/ reports %s',
    async (specifier) => {
      expect(await boundaryHits('renderer/src/api/boundary-probe.ts', importLine(specifier, 0), TS_RULE)).toEqual([1]);
    },
  );

  it.each(['./http', './types', '../lib/mpd-command', 'vue'])('api/ allows %s', async (specifier) => {
    expect(await boundaryHits('renderer/src/api/boundary-probe.ts', importLine(specifier, 0), TS_RULE)).toEqual([]);
  });

  it.each(['../components/CopyButton.vue', '../views/HomeView.vue', '../api/shares', '../api/player.js', '../api/types'])(
    'lib/ reports %s',
    async (specifier) => {
      expect(await boundaryHits('renderer/src/lib/boundary-probe.ts', importLine(specifier, 0), TS_RULE)).toEqual([1]);
    },
  );

  it.each(['../api/http', './format', '../i18n', 'vue'])('lib/ allows %s', async (specifier) => {
    expect(await boundaryHits('renderer/src/lib/boundary-probe.ts', importLine(specifier, 0), TS_RULE)).toEqual([]);
  });

  it('lib/ allows a type-only import from an API module', async () => {
    const code = "import type { ShareDetail } from '../api/types';\nexport type S = ShareDetail;\n";
    expect(await boundaryHits('renderer/src/lib/boundary-probe.ts', code, TS_RULE)).toEqual([]);
  });

  it('views may import api/, composables/ and lib/', async () => {
    const code = ['../api/shares', '../composables/useFormat', '../lib/format'].map(importLine).join('');
    expect(await boundaryHits('renderer/src/views/boundary-probe.ts', code, TS_RULE)).toEqual([]);
  });
});
