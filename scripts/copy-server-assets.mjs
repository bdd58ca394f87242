// Copies the non-TypeScript files the compiled server reads at run time.
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
for (const f of ['server/openapi.yml']) {
  const to = join(root, 'dist', f);
  mkdirSync(dirname(to), { recursive: true });
  cpSync(join(root, f), to);
}
// The server reads the OpenAPI document as JSON: parsing the YAML at start costs memory.
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
writeFileSync(join(root, 'dist/server/openapi.json'), JSON.stringify(parseYaml(readFileSync(join(root, 'server/openapi.yml'), 'utf8'))));

// Build information for GET /open/info/version.
import { execFileSync } from 'node:child_process';
const git = (...args) => {
  try {
    return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
};
writeFileSync(
  join(root, 'dist', 'build-info.json'),
  JSON.stringify({ builtAt: Date.now(), gitCommit: git('rev-parse', 'HEAD'), gitVersion: git('describe', '--always', '--dirty') }),
);
