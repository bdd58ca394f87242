#!/usr/bin/env node
// Checks the web client's size budget on the build output (dist/renderer): the
// JavaScript and CSS a browser loads for the first page — the entry, everything it
// imports statically, and the login page's chunk with its static imports — must stay
// at most 200 KB gzipped. Player, admin and editor code belongs in lazy chunks.
// Run by `npm test` after the build.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGET = 200 * 1024;
const dir = fileURLToPath(new URL('../dist/renderer/', import.meta.url));
const manifestPath = join(dir, '.vite', 'manifest.json');
/** the route component of the first page a visitor sees (`/app` → login) */
const firstPage = 'src/views/LoginView.vue';

if (!existsSync(manifestPath)) {
  console.error(`check-bundle-budget: ${manifestPath} is missing; run \`npm run build:renderer\` first.`);
  process.exit(1);
}

/** @type {Record<string, {file: string, css?: string[], imports?: string[], isEntry?: boolean}>} */
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
if (!entryKey) {
  console.error('check-bundle-budget: no entry in the manifest');
  process.exit(1);
}
if (!manifest[firstPage]) {
  console.error(`check-bundle-budget: ${firstPage} is not a chunk of its own (it should be a lazy route)`);
  process.exit(1);
}

const files = new Set();
const seen = new Set();
const walk = (key) => {
  if (seen.has(key)) return;
  seen.add(key);
  const chunk = manifest[key];
  if (!chunk) return;
  files.add(chunk.file);
  for (const css of chunk.css ?? []) files.add(css);
  for (const imp of chunk.imports ?? []) walk(imp);
};
walk(entryKey);
walk(firstPage);

let total = 0;
const rows = [];
for (const file of files) {
  const gz = gzipSync(readFileSync(join(dir, file)), { level: 9 }).length;
  total += gz;
  rows.push([file, gz]);
}
rows.sort((a, b) => b[1] - a[1]);
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
for (const [file, gz] of rows) console.log(`  ${kb(gz).padStart(9)}  ${file}`);
console.log(`check-bundle-budget: first page ${kb(total)} gzipped (budget ${kb(BUDGET)})`);
if (total > BUDGET) {
  console.error('check-bundle-budget: over budget — move code behind a lazy route or a dynamic import()');
  process.exit(1);
}
