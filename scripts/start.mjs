// `npm start`: the desktop app, after fetching on first use the Electron runtime (see
// electron-runtime.mjs) and better-sqlite3 built for Electron (electron-native.mjs); when
// either is not possible, one line saying why and the headless server. Extra arguments are
// passed on. `prestart` has already built dist/.
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureProjectElectronSqlite } from './electron-native.mjs';
import { ensureElectron } from './electron-runtime.mjs';
import { sandboxProblem } from './linux-sandbox.mjs';
import { requireBuilt, root, runForwarding, runServer } from './server-launch.mjs';

const args = process.argv.slice(2);

/** The Electron executable and better-sqlite3's build for it, or why the desktop app cannot start. */
async function desktop() {
  // The failed download is remembered in the data folder: `SERVICE_DATA_DIR` when
  // given, else the default one (a `data-dir` in a configuration file is not read here).
  const { defaultDataDir } = await import(pathToFileURL(requireBuilt('dist/server/config/data-dir.js')).href);
  const electron = await ensureElectron({
    electronDir: join(root, 'node_modules', 'electron'),
    stateFile: join(process.env.SERVICE_DATA_DIR?.trim() || defaultDataDir(process.env), 'electron-download.json'),
  });
  if (!('path' in electron)) return { reason: `No Electron runtime: ${electron.reason}` };

  const sqlite = await ensureProjectElectronSqlite(root);
  if (!('path' in sqlite)) return { reason: `No better-sqlite3 built for Electron: ${sqlite.reason}` };
  return { electron: electron.path, sqliteBinding: sqlite.path };
}

const ready = await desktop();
if ('reason' in ready) {
  console.log(`${ready.reason}. Running the headless server instead.`);
  await runServer(args);
} else {
  requireBuilt('dist/main/index.js');
  // The app folder, not the script: Electron then reads package.json ("main" is
  // dist/main/index.js), so the app's name and version are Pier's own.
  const env = { ...process.env, PIER_SQLITE_BINDING: ready.sqliteBinding };
  delete env.ELECTRON_RUN_AS_NODE;
  const problem = sandboxProblem(join(dirname(ready.electron), 'chrome-sandbox'));
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
  // The app starts the server in a utility process with the server's Node flags.
  runForwarding(ready.electron, [root, ...args], env);
}
