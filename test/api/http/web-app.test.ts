import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../support/server.js';

describe('the web client page', () => {
  it('is the built app at every /app path, with webapp.custom-head inserted into its head', async () => {
    const s = await startServer({ config: { webapp: { 'custom-head': '<meta name="pier-custom" content="inline">' } } });
    try {
      for (const path of ['/app', '/app/login', '/app/open/abc']) {
        const html = await (await fetch(s.url + path)).text();
        expect(html).toMatch(/<script type="module"[^>]+src="\/app\/assets\//);
        expect(html).toMatch(/<meta name="pier-custom" content="inline">\s*<\/head>/);
      }
    } finally {
      await s.stop();
    }
  });

  it('reads webapp.custom-head from a file when it names one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pier-head-'));
    const file = join(dir, 'head.html');
    writeFileSync(file, '<link rel="icon" href="/custom/favicon.png">');
    const s = await startServer({ config: { webapp: { 'custom-head': file } } });
    try {
      const html = await (await fetch(`${s.url}/app`)).text();
      expect(html).toContain('<link rel="icon" href="/custom/favicon.png">');
      expect(html).not.toContain(file);
    } finally {
      await s.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
