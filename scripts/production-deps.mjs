// The packages a packaged app carries: the closure of package.json's dependencies and
// optionalDependencies, each resolved as Node resolves it (its own node_modules first,
// then its parents'), as installed in node_modules. An optional dependency that is not
// installed is another platform's (sharp's @img/sharp-win32-x64) and is skipped.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** The folders of the production dependencies installed under `root`, nested ones included. */
export function productionPackageDirs(root) {
  const top = resolve(root);
  const found = new Set();
  const resolveFrom = (dir, name) => {
    for (let at = dir; ; at = dirname(at)) {
      const candidate = join(at, 'node_modules', name);
      if (existsSync(join(candidate, 'package.json'))) return candidate;
      if (at === top || dirname(at) === at) return null;
    }
  };
  const visit = (dir) => {
    if (found.has(dir)) return;
    found.add(dir);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const optional = pkg.optionalDependencies ?? {};
    for (const name of Object.keys({ ...pkg.dependencies, ...optional })) {
      const at = resolveFrom(dir, name);
      if (at !== null) visit(at);
      else if (!(name in optional)) throw new Error(`${name}, a dependency of ${dir}, is not installed`);
    }
  };
  visit(top);
  found.delete(top);
  return [...found];
}
