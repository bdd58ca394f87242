/**
 * `npm run docs:config`: writes docs/configuration.md from server/config/spec.ts.
 * `test/unit/config/docs.test.ts` fails when the file is out of date.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderConfigDocs } from '../server/config/docs.js';

const target = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'configuration.md');
await mkdir(dirname(target), { recursive: true });
await writeFile(target, renderConfigDocs());
process.stdout.write(`wrote ${target}\n`);
