// Builds nothing: the e2e tests run against dist/renderer, which `npm run build`
// produced before them. Fails early and clearly when it is missing.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export default function globalSetup(): void {
  const index = fileURLToPath(new URL('../../dist/renderer/index.html', import.meta.url));
  if (!existsSync(index)) {
    throw new Error(`The web client is not built (${index} is missing). Run \`npm run build\` first.`);
  }
}
