import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Writes a module for `--import` that appends to `list`, in the order they
 * happen, the URL of every ES module loaded (through a loader hook) and
 * `dlopen <file>` for every native addon opened.
 */
export const recordLoads = (dir: string, list: string): string => {
  writeFileSync(
    join(dir, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) { appendFileSync(${JSON.stringify(list)}, url + '\\n'); return next(url, context); }\n`,
  );
  writeFileSync(
    join(dir, 'record.mjs'),
    `import { appendFileSync } from 'node:fs';
import { register } from 'node:module';
register('./hooks.mjs', import.meta.url);
const dlopen = process.dlopen;
process.dlopen = function (module, file, ...rest) { appendFileSync(${JSON.stringify(list)}, 'dlopen ' + file + '\\n'); return dlopen.call(this, module, file, ...rest); };
`,
  );
  return pathToFileURL(join(dir, 'record.mjs')).href;
};
