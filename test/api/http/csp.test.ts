/**
 * Regression: the web client at `/app` was served without a
 * Content-Security-Policy and could be framed by any site (clickjacking), and
 * any script that found its way into the page would run. `/app` carries a
 * strict policy (scripts and styles only from this server, no plugins, no
 * `<base>`, forms only to this server), `frame-ancestors 'none'` and
 * `X-Frame-Options: DENY`. What an administrator configured still works:
 * external app icons and logos, and the inline parts of `webapp.custom-head`
 * (allowed by their hashes).
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../support/server.js';

/** `directive → sources` of a policy header. */
const directives = (policy: string | null): Record<string, string[]> =>
  Object.fromEntries(
    (policy ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...sources]) => [name!, sources]),
  );

describe('the security headers of the web client', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(() => s.stop());

  it('serve /app with a strict policy that forbids framing', async () => {
    for (const path of ['/app', '/app/login', '/app/open/abc']) {
      const res = await fetch(s.url + path);
      expect(res.status).toBe(200);
      const csp = directives(res.headers.get('content-security-policy'));
      expect(csp['frame-ancestors'], path).toEqual(["'none'"]);
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(csp['default-src']).toEqual(["'self'"]);
      expect(csp['script-src']).toEqual(["'self'"]);
      expect(csp['style-src']).toEqual(["'self'"]);
      expect(csp['object-src']).toEqual(["'none'"]);
      expect(csp['base-uri']).toEqual(["'none'"]);
      expect(csp['form-action']).toEqual(["'self'"]);
      expect(csp['img-src']).toEqual(["'self'", 'data:', 'blob:']);
      expect(csp['media-src']).toEqual(["'self'", 'blob:']);
      // the player's WebSocket on this host only, not any ws: URL
      const u = new URL(s.url);
      expect(csp['connect-src']).toEqual(["'self'", `ws://${u.host}`, `wss://${u.host}`]);
    }
  });

  it('keep the policy on the built files and leave API answers alone', async () => {
    const html = await (await fetch(`${s.url}/app`)).text();
    const script = /src="(\/app\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(s.url + script!);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('x-frame-options')).toBe('DENY');
    const api = await fetch(`${s.url}/api/v2/open/info/version`);
    expect(api.headers.get('content-security-policy')).toBeNull();
  });
});

describe('the policy with administrator settings', () => {
  const inlineScript = "window.analytics = 'on';";
  const inlineStyle = ':root { --brand: #123456; }';
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({
      config: {
        webapp: {
          'app-icon': 'https://cdn.example.test/icons/pier.svg',
          'app-logo-dark': 'https://logos.example.test:8443/dark.png',
          'app-logo': '/custom/logo.png',
          'custom-head': `<script>${inlineScript}</script><style>${inlineStyle}</style><script src="https://stats.example.test/s.js"></script>`,
        },
      },
    });
  });
  afterAll(() => s.stop());

  const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

  it('allows configured external icons and logos, and the custom head by hash and origin', async () => {
    const res = await fetch(`${s.url}/app`);
    const csp = directives(res.headers.get('content-security-policy'));
    expect(csp['img-src']).toEqual(["'self'", 'data:', 'blob:', 'https://cdn.example.test', 'https://logos.example.test:8443']);
    expect(csp['script-src']).toEqual(["'self'", sha(inlineScript), 'https://stats.example.test']);
    expect(csp['style-src']).toEqual(["'self'", sha(inlineStyle)]);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
  });
});
