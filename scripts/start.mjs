// `npm start`: the desktop app, after fetching the Electron runtime on first use (see
// electron-runtime.mjs); when that is not possible, one line saying why and the headless
// server. Extra arguments are passed on. `prestart` has already built dist/.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureElectron } from './electron-runtime.mjs';
import { requireBuilt, root, runForwarding, runServer } from './server-launch.mjs';

const args = process.argv.slice(2);

// The failed download is remembered in the data folder: `SERVICE_DATA_DIR` when
// given, else the default one (a `data-dir` in a configuration file is not read here).
const { defaultDataDir } = await import(pathToFileURL(requireBuilt('dist/server/config/data-dir.js')).href);
const electron = await ensureElectron({
  electronDir: join(root, 'node_modules', 'electron'),
  stateFile: join(process.env.SERVICE_DATA_DIR?.trim() || defaultDataDir(process.env), 'electron-download.json'),
});
if ('path' in electron) {
  requireBuilt('dist/main/index.js');
  const { SERVER_NODE_FLAGS } = await import(pathToFileURL(requireBuilt('dist/server/process/flags.js')).href);
  // The app folder, not the script: Electron then reads package.json ("main" is
  // dist/main/index.js), so the app's name and version are Pier's own.
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE;
  // While the server runs in the main process, it gets the server's Node flags as V8 flags.
  runForwarding(electron.path, [`--js-flags=${SERVER_NODE_FLAGS.join(' ')}`, root, ...args], env);
} else {
  console.log(`No Electron runtime: ${electron.reason}. Running the headless server instead.`);
  await runServer(args);
}
