// The web client's session against a real server: the auth store renews its token every
// `webapp.auth-renewal` and sends the renewed one afterwards; a 401 from a secured route ends the
// session and calls the client's unauthorized hook (the login page with a back-link), also when it
// is the periodic renewal that finds the session ended. Before, a renewal answered 401 dropped
// the session silently and left the user on the page.
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiFetch, ApiError, configureApi } from '../../../renderer/src/api/http.js';
import { useAuthStore } from '../../../renderer/src/stores/auth.js';
import { useSettingsStore } from '../../../renderer/src/stores/settings.js';
import { ADMIN, startServer, type TestServer } from '../../support/server.js';
import { MemoryStorage } from '../../support/memory-storage.js';

const RENEWAL = 300;

interface Sent {
  path: string;
  token: string | undefined;
  status: number;
}

describe('the web client session', () => {
  let server: TestServer;
  let sent: Sent[];
  let storage: MemoryStorage;
  let unauthorized: number;
  let auth: ReturnType<typeof useAuthStore>;

  beforeEach(async () => {
    server = await startServer({ config: { webapp: { 'auth-renewal': `${RENEWAL} ms` } } });
    sent = [];
    storage = new MemoryStorage();
    unauthorized = 0;
    const realFetch = globalThis.fetch;
    // the page's origin is the server: the client's relative API paths go to it
    vi.stubGlobal('fetch', async (path: string, init: RequestInit) => {
      if (!path.startsWith('/')) return realFetch(path, init);
      const res = await realFetch(server.url + path, init);
      sent.push({ path, token: (init.headers as Record<string, string>)['Service-Auth'], status: res.status });
      return res;
    });
    vi.stubGlobal('localStorage', storage);
    setActivePinia(createPinia());
    await useSettingsStore().load();
    auth = useAuthStore();
    configureApi({
      token: () => auth.token,
      onUnauthorized: () => {
        unauthorized++;
        auth.clear();
      },
    });
  });
  afterEach(async () => {
    auth.clear();
    vi.unstubAllGlobals();
    await server.stop();
  });

  const renewals = () => sent.filter((s) => s.path === '/api/v2/sec/auth/session');
  const storedToken = () => (JSON.parse(storage.getItem('account') ?? 'null') as { token: string } | null)?.token;

  it('renews the token every auth-renewal with the current token, stores it and sends it afterwards', async () => {
    expect(useSettingsStore().config.authRefreshTime).toBe(RENEWAL);
    expect((await auth.signIn(ADMIN.login, ADMIN.password)).success).toBe(true);
    const first = auth.token!;
    // several renewals, and a token that differs (tokens carry their issue time in seconds)
    await expect.poll(() => renewals().length >= 3 && auth.token !== first, { timeout: 5000 }).toBe(true);
    const renewed = renewals();
    expect(renewed.every((r) => r.status === 200)).toBe(true);
    expect(renewed[0]!.token).toBe(first);
    expect(storedToken()).toBe(auth.token);
    const current = auth.token!;
    await apiFetch('/api/v2/sec/share/search?q=');
    expect(sent.at(-1)).toEqual({ path: '/api/v2/sec/share/search?q=', token: current, status: 200 });
    expect(unauthorized).toBe(0);
  });

  it('ends the session and calls the unauthorized hook on a 401 from a secured route', async () => {
    await auth.signIn(ADMIN.login, ADMIN.password);
    // another device signs out everywhere: every token of the account ends
    const other = await server.login(ADMIN.login, ADMIN.password);
    const shared = await server.request<{ id: string }>('POST', '/api/v2/sec/upload/new', { validity: 3600_000, maxViews: 10, password: 'share-password' }, { token: other });
    await server.request('POST', `/api/v2/sec/share/${shared.body.id}/publish`, { reuseId: false }, { token: other });
    const detail = await server.request<{ publishInfo: { id: string } }>('GET', `/api/v2/sec/share/${shared.body.id}`, undefined, { token: other });
    // the renewals stop first: one answered 401 would call the hook too (the next test covers that)
    auth.clear();
    expect((await server.request('POST', '/api/v2/sec/auth/logout-all', undefined, { token: other })).status).toBe(200);
    await expect(apiFetch('/api/v2/sec/share/search?q=')).rejects.toBeInstanceOf(ApiError);
    expect(unauthorized).toBe(1);
    // an open route's 401 (a share password missing) is no sign of an ended session
    await expect(apiFetch(`/api/v2/open/share/${detail.body.publishInfo.id}`)).rejects.toBeInstanceOf(ApiError);
    expect(sent.at(-1)!.status).toBe(401);
    expect(unauthorized).toBe(1);
  });

  it('ends the session and calls the unauthorized hook when a renewal is answered 401, then stops renewing', async () => {
    await auth.signIn(ADMIN.login, ADMIN.password);
    const other = await server.login(ADMIN.login, ADMIN.password);
    expect((await server.request('POST', '/api/v2/sec/auth/logout-all', undefined, { token: other })).status).toBe(200);
    await expect.poll(() => unauthorized, { timeout: 5000 }).toBe(1);
    expect(renewals().at(-1)!.status).toBe(401);
    expect(auth.loggedIn).toBe(false);
    expect(storage.getItem('account')).toBeNull();
    const count = renewals().length;
    // letting several renewal periods pass is the test: no renewal follows an ended session
    await new Promise((r) => setTimeout(r, 3 * RENEWAL));
    expect(renewals().length).toBe(count);
  });
});
