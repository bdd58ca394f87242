import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentedRoutes, loadOpenApi } from '../../../server/http/openapi.js';
import { ADMIN, startServer, type TestServer } from '../../support/server.js';

/** A concrete path for a documented template: every `{param}` becomes a valid ident. */
const concrete = (template: string) => template.replace(/\{[^}]+\}/g, 'some-id');

describe('access zones', () => {
  let s: TestServer;
  let user: string;
  const routes = documentedRoutes(loadOpenApi().doc).map((r) => {
    const [method, path] = r.split(' ') as [string, string];
    return { method: method.toUpperCase(), path };
  });

  beforeAll(async () => {
    s = await startServer();
    await s.request('POST', '/api/v2/open/signup/register', { login: 'user', password: 'user-password' });
    user = await s.login('user', 'user-password');
  });
  afterAll(() => s.stop());

  it('answers 401 on every /sec and /admin route without a token, or with a token of another secret', async () => {
    const foreign =
      'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJsb2dpbiI6ImFkbWluIiwiYWRtaW4iOnRydWUsInN1YiI6ImFkbWluIiwiZXhwIjo5OTk5OTk5OTk5fQ.' +
      'c2lnbmVkLXdpdGgtYW5vdGhlci1zZWNyZXQtYWFhYWFhYWFhYWFh';
    const secured = routes.filter((r) => /^\/api\/v2\/(sec|admin)\//.test(r.path));
    expect(secured.length).toBeGreaterThan(10);
    for (const r of secured) {
      for (const token of [undefined, foreign]) {
        const res = await s.request(r.method, concrete(r.path), r.method === 'POST' ? {} : undefined, token ? { token } : {});
        expect(res.status, `${r.method} ${r.path}`).toBe(401);
        // a HEAD answer carries no body
        if (r.method !== 'HEAD') expect(res.body).toEqual({ success: false, message: 'Authentication failed.', code: 'auth.failed' });
      }
    }
  });

  it('answers 403 on every /admin route for a user who is not an admin, before looking at the request', async () => {
    const admin = routes.filter((r) => r.path.startsWith('/api/v2/admin/'));
    for (const r of admin) {
      const res = await s.request(r.method, concrete(r.path), r.method === 'POST' ? {} : undefined, { token: user });
      expect(res.status, `${r.method} ${r.path}`).toBe(403);
    }
    expect((await s.request('GET', '/api/v2/admin/account', undefined, { token: await s.login(ADMIN.login, ADMIN.password) })).status).toBe(200);
  });

  it('answers 400 naming the parameter for a path id that is not an ident', async () => {
    const admin = await s.login(ADMIN.login, ADMIN.password);
    const res = await s.request('GET', '/api/v2/admin/account/a%20b', undefined, { token: admin });
    expect(res.status).toBe(400);
    expect(String(res.body['message'])).toContain("'id'");
    expect((await s.request('GET', '/api/v2/open/auth/oauth/a%20b')).status).toBe(400);
  });
});
