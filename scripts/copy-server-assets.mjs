// Copies the non-TypeScript files the compiled server reads at run time.
import { cpSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
for (const f of ['server/openapi.yml']) {
  const to = join(root, 'dist', f);
  mkdirSync(dirname(to), { recursive: true });
  cpSync(join(root, f), to);
}

// Build information for GET /open/info/version.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
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
