// Playwright fixtures, layered: server (one real Pier server per worker) → api (seeding
// through the HTTP API) → user (a fresh account) → userPage / adminPage (a page whose
// browser is signed in as that account). Specs import `test` and `expect` from here.
import { test as base, expect, type BrowserContext, type Page } from '@playwright/test';
import { ADMIN, startServer, type Json, type TestServer } from '../support/server.js';

export { expect };

const DAY = 86_400_000;

export interface AuthBody {
  id: string;
  user: string;
  admin: boolean;
  success: boolean;
  message: string;
  token: string | null;
  validMs: number;
}

export interface Account {
  login: string;
  password: string;
  token: string;
  auth: AuthBody;
}

export interface SeedFile {
  name: string;
  content: string | Uint8Array;
  type?: string;
}

let counter = 0;
/** A login nobody else in this worker uses. */
export const uniqueLogin = (prefix = 'user'): string => `${prefix}-${process.pid}-${Date.now().toString(36)}-${++counter}`;

/** Seeding and checking through the HTTP API (every JSON answer is checked against openapi.yml). */
export class Api {
  constructor(readonly server: TestServer) {}

  async signIn(login: string, password: string): Promise<AuthBody> {
    const res = await this.server.request<AuthBody>('POST', '/api/v2/open/auth/login', { account: login, password });
    expect(res.body.success, `sign-in of ${login}: ${res.text}`).toBe(true);
    return res.body;
  }

  /** Ends every session of the account, as "sign out everywhere" on another device does. */
  async signOutEverywhere(account: Account): Promise<void> {
    const other = await this.signIn(account.login, account.password);
    const res = await this.server.request('POST', '/api/v2/sec/auth/logout-all', undefined, { token: other.token! });
    expect(res.status, res.text).toBe(200);
  }

  async admin(): Promise<Account> {
    const auth = await this.signIn(ADMIN.login, ADMIN.password);
    return { ...ADMIN, token: auth.token!, auth };
  }

  /** Creates an active account through the admin API and signs it in. */
  async createAccount(opts: { login?: string; password?: string; admin?: boolean; email?: string | null } = {}): Promise<Account> {
    const admin = await this.admin();
    const login = opts.login ?? uniqueLogin();
    const password = opts.password ?? `pw-${login}`;
    const res = await this.server.request<{ success: boolean; message: string }>(
      'POST',
      '/api/v2/admin/account',
      { login, password, state: 'Active', admin: opts.admin ?? false, email: opts.email ?? null },
      { token: admin.token },
    );
    expect(res.body.success, res.text).toBe(true);
    const auth = await this.signIn(login, password);
    return { login, password, token: auth.token!, auth };
  }

  /** Creates an empty share; returns its id. */
  async createShare(token: string, props: Json = {}): Promise<string> {
    const res = await this.server.request<{ success: boolean; id: string }>(
      'POST',
      '/api/v2/sec/upload/new',
      { validity: DAY, maxViews: 10, ...props },
      { token },
    );
    expect(res.body.success, res.text).toBe(true);
    return res.body.id;
  }

  /** Adds files to a share by multipart upload. */
  async addFiles(token: string, shareId: string, files: SeedFile[]): Promise<void> {
    const form = new FormData();
    for (const f of files) {
      const bytes = typeof f.content === 'string' ? new TextEncoder().encode(f.content) : new Uint8Array(f.content);
      form.append('file', new Blob([bytes], { type: f.type ?? 'application/octet-stream' }), f.name);
    }
    const res = await fetch(`${this.server.url}/api/v2/sec/upload/${shareId}/files/add`, {
      method: 'POST',
      headers: { 'Service-Auth': token },
      body: form,
    });
    const body = (await res.json()) as { success: boolean };
    expect(body.success).toBe(true);
  }

  /** Publishes a share; returns the publish id. */
  async publish(token: string, shareId: string): Promise<string> {
    const res = await this.server.request<{ success: boolean }>('POST', `/api/v2/sec/share/${shareId}/publish`, { reuseId: false }, { token });
    expect(res.body.success, res.text).toBe(true);
    const detail = await this.shareDetail(token, shareId);
    return detail.publishInfo!.id;
  }

  async shareDetail(token: string, shareId: string): Promise<ShareDetailBody> {
    const res = await this.server.request<ShareDetailBody>('GET', `/api/v2/sec/share/${shareId}`, undefined, { token });
    expect(res.status).toBe(200);
    return res.body;
  }

  async searchShares(token: string, q = ''): Promise<{ id: string; name: string | null; aliasName: string | null }[]> {
    const res = await this.server.request<{ items: { id: string; name: string | null; aliasName: string | null }[] }>(
      'GET',
      `/api/v2/sec/share/search?q=${encodeURIComponent(q)}`,
      undefined,
      { token },
    );
    expect(res.status).toBe(200);
    return res.body.items;
  }

  /** Creates an alias owned by `token`'s account; returns its id. */
  async createAlias(
    token: string,
    props: { name: string; validity?: number; enabled?: boolean; members?: string[]; message?: string | null; maxSize?: number | null; expires?: number | null },
  ): Promise<string> {
    const res = await this.server.request<{ success: boolean; id: string }>(
      'POST',
      '/api/v2/sec/alias',
      { id: null, validity: DAY, enabled: true, members: [], ...props },
      { token },
    );
    expect(res.body.success, res.text).toBe(true);
    return res.body.id;
  }
}

export interface ShareDetailBody {
  id: string;
  name: string | null;
  aliasName: string | null;
  password: boolean;
  publishInfo: { id: string; enabled: boolean; views: number } | null;
  files: { id: string; filename: string; size: number; storedSize: number; checksum: string; mimetype: string }[];
}

/**
 * Signs a browser context in as `account`: the session cookie the server would set,
 * and the stored session the web client reads at start (once per tab, so signing
 * out in the test sticks).
 */
export async function signInContext(context: BrowserContext, baseURL: string, account: Account): Promise<void> {
  await context.addCookies([{ name: 'service_auth', value: account.token, url: baseURL, httpOnly: true, sameSite: 'Lax' }]);
  await context.addInitScript((auth) => {
    if (sessionStorage.getItem('e2e-signed-in')) return;
    sessionStorage.setItem('e2e-signed-in', '1');
    localStorage.setItem('account', JSON.stringify(auth));
  }, account.auth);
}

interface WorkerFixtures {
  /** configuration below `service.restserver` for this worker's server (`test.use({serverConfig})`) */
  serverConfig: Json;
  server: TestServer;
}

interface TestFixtures {
  api: Api;
  user: Account;
  userPage: Page;
  adminPage: Page;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  serverConfig: [{}, { option: true, scope: 'worker' }],
  server: [
    async ({ serverConfig }, use) => {
      const server = await startServer({ config: serverConfig });
      await use(server);
      await server.stop();
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  baseURL: async ({ server }, use) => {
    await use(server.url);
  },
  api: async ({ server }, use) => {
    await use(new Api(server));
  },
  user: async ({ api }, use) => {
    await use(await api.createAccount());
  },
  userPage: async ({ page, context, user, server }, use) => {
    await signInContext(context, server.url, user);
    await use(page);
  },
  adminPage: async ({ page, context, api, server }, use) => {
    await signInContext(context, server.url, await api.admin());
    await use(page);
  },
});
