// The two-node example of docs/scaling.md forwarded no client address and named no
// `trusted-proxies`: behind it every client came from nginx's address and shared one
// rate-limit bucket. The example, loaded as it stands, must give each client its own address.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config/index.js';
import { createClientOrigin } from '../../../server/http/client-origin.js';

const doc = readFileSync(fileURLToPath(new URL('../../../docs/scaling.md', import.meta.url)), 'utf8');
const block = (lang: string): string => {
  const m = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(doc);
  if (!m) throw new Error(`no ${lang} block in docs/scaling.md`);
  return m[1]!;
};

describe('the nginx example of docs/scaling.md', () => {
  it('forwards the client address and the nodes believe it from nginx only', async () => {
    const nginx = block('nginx');
    expect(nginx).toMatch(/proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;/);
    const dir = mkdtempSync(join(tmpdir(), 'pier-scaling-doc-'));
    try {
      const file = join(dir, 'pier.conf');
      writeFileSync(file, block('hocon').replace(/data-dir = "[^"]*"/, `data-dir = ${JSON.stringify(dir)}`));
      const { config } = await loadConfig({ file, env: {} });
      expect(config.trustedProxies.length).toBeGreaterThan(0);
      const origin = createClientOrigin(config.trustedProxies);
      // what nginx sends for a client without forwarding headers of its own, from the address the example names
      const proxy = config.trustedProxies[0]!.replace(/\/\d+$/, '');
      const fromNginx = { socket: { remoteAddress: proxy }, headers: { 'x-forwarded-for': '203.0.113.7' } } as unknown as IncomingMessage;
      expect(origin.clientAddress(fromNginx)).toBe('203.0.113.7');
      // anyone else's forwarding header is ignored
      const direct = { socket: { remoteAddress: '198.51.100.9' }, headers: { 'x-forwarded-for': '203.0.113.7' } } as unknown as IncomingMessage;
      expect(origin.clientAddress(direct)).toBe('198.51.100.9');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
