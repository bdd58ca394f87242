import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentedRoutes, loadOpenApi } from '../../../server/http/openapi.js';
import { systemClock } from '../../../server/common/clock.js';
import { createClientOrigin, createLinks } from '../../../server/http/client-origin.js';
import { createHttpApp } from '../../../server/http/http-app.js';
import { startServer, type TestServer } from '../../support/server.js';

describe('the OpenAPI file', () => {
  it('is a valid OpenAPI 3.0 document', async () => {
    const { doc } = loadOpenApi();
    expect(doc.openapi).toMatch(/^3\.0\./);
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  it('describes exactly the routes the server registers', async () => {
    const s = await startServer();
    try {
      // Build the app the way the server does and compare both directions.
      const { routes } = createHttpApp({
        config: s.config,
        log: { trace() {}, debug() {}, info() {}, warn() {}, error() {}, child() { return this; } },
        version: { version: '0', builtAtMillis: 0, builtAtString: '', gitCommit: '', gitVersion: '' },
        origin: createClientOrigin([]),
        clock: systemClock,
        links: createLinks(s.config, systemClock),
        auth: {} as never,
        oauth: {} as never,
        accounts: {} as never,
        signup: {} as never,
        stores: {} as never,
        shares: {} as never,
        activity: {} as never,
        downloads: {} as never,
        uploads: {} as never,
        aliases: {} as never,
        guestUploads: {} as never,
        mail: {} as never,
      });
      const documented = documentedRoutes(loadOpenApi().doc).sort();
      expect([...routes].sort()).toEqual(documented);
    } finally {
      await s.stop();
    }
  });
});

describe('served documentation, web client and unknown routes', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(() => s.stop());

  it('serves the raw file and an interactive page at /api/doc', async () => {
    const yml = await s.request('GET', '/api/doc/openapi.yml', undefined, { unchecked: true });
    expect(yml.status).toBe(200);
    expect(yml.text).toContain('/api/v2/open/auth/login');
    const page = await s.request('GET', '/api/doc', undefined, { unchecked: true });
    expect(page.status).toBe(200);
    expect(page.text).toContain('swagger-ui');
    const bundle = await fetch(`${s.url}/api/doc/assets/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect((await bundle.text()).length).toBeGreaterThan(100_000);
  });

  it('redirects / to /app and answers every /app path with the web client', async () => {
    const root = await fetch(`${s.url}/`, { redirect: 'manual' });
    expect(root.status).toBe(303);
    expect(root.headers.get('location')).toBe('/app');
    for (const p of ['/app', '/app/', '/app/login', '/app/open/some-id']) {
      const res = await fetch(s.url + p);
      expect(res.status, p).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
    }
  });

  it('answers unknown routes with a JSON 404, never a stack trace', async () => {
    for (const p of ['/nope', '/api/v2/open/nope', '/api/v2/../../etc/passwd', '/api/v2/open/info/appconfig/%ZZ']) {
      const res = await fetch(s.url + p);
      expect(res.status, p).toBeGreaterThanOrEqual(400);
      expect(res.status, p).toBeLessThan(500);
      const text = await res.text();
      expect(text).not.toMatch(/at .*\.(js|ts):\d+/);
    }
    const res = await fetch(`${s.url}/api/v2/open/nope`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ success: false, message: 'The requested resource was not found.', code: 'error.not-found' });
  });
});
