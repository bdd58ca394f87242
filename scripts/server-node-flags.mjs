// The Node flags of the server process, read from the `serve` script of package.json
// (`node <flags> dist/server/cli.js`), so that `npm run serve`, `npm start` (headless, or
// the desktop app's main process through Electron's --js-flags) and the benchmarks start
// the server alike.
import { readFileSync } from 'node:fs';

// numeric V8 flags, nothing else
const SERVE = /^node((?: --[a-z-]+=\d+)*) dist\/server\/cli\.js$/;

/** The flags of a `serve` script; throws when the script has another shape. */
export function nodeFlagsOf(serve) {
  const m = SERVE.exec(serve);
  if (!m) throw new Error(`package.json "serve" must be \`node [--flag=number ...] dist/server/cli.js\`, not \`${serve}\``);
  return m[1].split(' ').filter(Boolean);
}

/** The flags of this project's `serve` script. */
export function serverNodeFlags() {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  return nodeFlagsOf(pkg.scripts.serve);
}
