// `npm test`: every suite that runs on this machine, one after the other, each announced
// before it starts; at the end one line per suite says whether it passed, failed or did not
// run because an earlier one failed. The desktop smoke test needs the Electron runtime and
// is not part of it (`npm run test:desktop`).
import { spawnSync } from 'node:child_process';

const STEPS = [
  ['system packages', 'node scripts/ensure-system-deps.mjs'],
  ['lint', 'npm run lint --silent'],
  ['type-check', 'npm run typecheck --silent'],
  ['build', 'npm run build --silent'],
  ['unit and API tests (vitest)', 'npx vitest run'],
  ['bundle budget', 'node scripts/check-bundle-budget.mjs'],
  ['browser tests (Playwright, Chromium)', 'npx playwright test'],
];

const results = [];
let failed = false;
for (const [name, command] of STEPS) {
  if (failed) {
    results.push({ name, status: 'not run (an earlier suite failed)' });
    continue;
  }
  console.log(`\n==> ${name}: ${command}`);
  const started = Date.now();
  const r = spawnSync(command, { shell: true, stdio: 'inherit' });
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  failed = r.status !== 0;
  results.push({ name, status: r.status === 0 ? `passed in ${seconds} s` : `FAILED (exit ${r.status ?? r.signal})` });
}

console.log('\n==> npm test ran:');
for (const { name, status } of results) console.log(`    ${name}: ${status}`);
console.log('    desktop smoke test: not part of npm test; `npm run test:desktop` runs it where Electron is installed');
process.exit(failed ? 1 : 0);
