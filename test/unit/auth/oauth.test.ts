import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../../server/common/clock.js';
import { AppError } from '../../../server/common/errors.js';
import type { Logger } from '../../../server/common/log.js';
import type { OAuthProviderConfig } from '../../../server/config/types.js';
import type { AuthService } from '../../../server/core/auth/auth.service.js';
import type { AuthResult } from '../../../server/core/auth/auth.types.js';
import { accountLogin, createOAuthService, findUserValue, oauthStateValidMs } from '../../../server/core/auth/oauth.service.js';
import { startEndpoint } from '../../support/http-endpoint.js';

const appBase = 'https://pier.example.test/';
const callback = 'https://pier.example.test/api/v2/open/auth/oauth/prov/resume';

/** What the local provider answers; each test sets what it needs. */
let tokenReply: 'json' | 'form' | 'github-error' | 400 = 'json';
let userBody: unknown;
const defaultUser = { login: 'Alice.Smith', email: 'a@example.test', nested: { uid: 42, login: 'mallory' } };

let endpoint: Awaited<ReturnType<typeof startEndpoint>>;
let idp: string;

beforeAll(async () => {
  endpoint = await startEndpoint((req, res) => {
    if (req.url === '/token' && req.method === 'POST') {
      const f = new URLSearchParams(req.body);
      const good =
        req.headers['content-type'] === 'application/x-www-form-urlencoded' &&
        req.headers.accept === 'application/json' &&
        f.get('grant_type') === 'authorization_code' &&
        f.get('client_id') === 'cid' &&
        f.get('client_secret') === 'csecret' &&
        f.get('code') === 'good-code' &&
        f.get('redirect_uri') === callback;
      if (!good || tokenReply === 400) {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"invalid_grant"}');
      } else if (tokenReply === 'form') {
        res.writeHead(200, { 'content-type': 'application/x-www-form-urlencoded' }).end('access_token=tok-123&token_type=bearer');
      } else if (tokenReply === 'github-error') {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"error":"bad_verification_code"}');
      } else {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"access_token":"tok-123","token_type":"bearer"}');
      }
    } else if (req.url === '/user' && req.method === 'GET') {
      if (req.headers.authorization !== 'Bearer tok-123') res.writeHead(401).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(userBody));
    } else {
      res.writeHead(404).end();
    }
  });
  idp = endpoint.url;
});
afterAll(() => endpoint.stop());

const provider = (over: Partial<OAuthProviderConfig> = {}): OAuthProviderConfig => ({
  enabled: true,
  name: 'Provider',
  icon: 'fa-openid',
  scope: 'read:user email',
  authorizeUrl: 'https://idp.example.test/authorize?tenant=t1',
  tokenUrl: `${idp}/token`,
  userUrl: `${idp}/user`,
  userIdKey: 'login',
  userEmailKey: 'email',
  clientId: 'cid',
  clientSecret: 'csecret',
  ...over,
});

const setup = (providers: Record<string, OAuthProviderConfig> = { prov: provider(), other: provider() }) => {
  const calls: [string, string, string | null][] = [];
  const warnings: string[] = [];
  const auth: AuthService = {
    login: () => Promise.reject(new Error('unused')),
    renew: () => Promise.reject(new Error('unused')),
    authenticate: () => Promise.reject(new Error('unused')),
    endAllSessions: () => Promise.reject(new Error('unused')),
    logout: () => Promise.reject(new Error('unused')),
    changePassword: () => Promise.reject(new Error('unused')),
    hostToken: () => Promise.reject(new Error('unused')),
    loginExternal(login, source, email) {
      calls.push([login, source, email]);
      const ok: AuthResult = { id: 'acc-1', user: login, admin: false, success: true, message: 'Login successful', code: 'auth.ok', token: 't', validMs: 1 };
      return Promise.resolve(ok);
    },
  };
  const log: Logger = {
    trace: () => undefined,
    debug: () => undefined,
    info: () => undefined,
    warn: (m, f) => void warnings.push(JSON.stringify([m, f])),
    error: () => undefined,
    child: () => log,
  };
  const clock = manualClock(1_700_000_000_000);
  const secret = new TextEncoder().encode('test-secret');
  const service = createOAuthService({ providers, secret, auth, clock, log });
  // Plays the browser: remembers the nonce of each state, as the route's cookie does.
  const nonces = new Map<string, string>();
  const oauth = {
    authorizeUrl: async (id: string, base: string) => {
      const { url, nonce } = await service.authorizeUrl(id, base);
      nonces.set(new URL(url).searchParams.get('state') ?? '', nonce);
      return url;
    },
    resume: (id: string, params: Parameters<typeof service.resume>[1], base: string) =>
      service.resume(id, { nonce: params.state ? nonces.get(params.state) : undefined, ...params }, base),
  };
  const stateFor = async (id = 'prov') => new URL(await oauth.authorizeUrl(id, appBase)).searchParams.get('state') ?? '';
  return { oauth, calls, warnings, clock, stateFor };
};

beforeEach(() => {
  tokenReply = 'json';
  userBody = defaultUser;
});

describe('authorizeUrl', () => {
  it('keeps the query of authorize-url and adds client id, callback, response type, scope and a state', async () => {
    const url = new URL(await setup().oauth.authorizeUrl('prov', appBase));
    expect(`${url.origin}${url.pathname}`).toBe('https://idp.example.test/authorize');
    const q = url.searchParams;
    expect(q.get('tenant')).toBe('t1');
    expect(q.get('client_id')).toBe('cid');
    expect(q.get('redirect_uri')).toBe(callback);
    expect(q.get('response_type')).toBe('code');
    expect(q.get('scope')).toBe('read:user email');
    expect(q.get('state')).toMatch(/^[\w-]+\.[\w-]+$/);
  });

  it('leaves out an empty scope', async () => {
    const { oauth } = setup({ prov: provider({ scope: '' }) });
    expect(new URL(await oauth.authorizeUrl('prov', appBase)).searchParams.has('scope')).toBe(false);
  });

  it('refuses unknown and disabled providers with not-found', async () => {
    const { oauth } = setup({ prov: provider({ enabled: false }) });
    for (const id of ['prov', 'nope', 'constructor']) {
      const err = await oauth.authorizeUrl(id, appBase).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe('not-found');
    }
  });
});

describe('resume', () => {
  it('exchanges the code, reads the user and logs in <id>@<provider> (JSON token reply)', async () => {
    const { oauth, calls, stateFor } = setup();
    const result = await oauth.resume('prov', { code: 'good-code', state: await stateFor() }, appBase);
    expect(result.success).toBe(true);
    expect(calls).toEqual([['alice.smith@prov', 'oauth:prov', 'a@example.test']]);
  });

  it('accepts a form-encoded token reply', async () => {
    tokenReply = 'form';
    const { oauth, calls, stateFor } = setup();
    expect((await oauth.resume('prov', { code: 'good-code', state: await stateFor() }, appBase)).success).toBe(true);
    expect(calls).toHaveLength(1);
  });

  it('follows a dotted user-id-key, and refuses a reply that holds the key only elsewhere', async () => {
    userBody = { data: { user: { name: 'Bob' } }, profile: [{ id: 7 }] };
    const nested = setup({ prov: provider({ userIdKey: 'data.user.name', userEmailKey: '' }) });
    await nested.oauth.resume('prov', { code: 'good-code', state: await nested.stateFor() }, appBase);
    expect(nested.calls).toEqual([['bob@prov', 'oauth:prov', null]]);

    const elsewhere = setup({ prov: provider({ userIdKey: 'id' }) });
    expect((await elsewhere.oauth.resume('prov', { code: 'good-code', state: await elsewhere.stateFor() }, appBase)).success).toBe(false);
    expect(elsewhere.calls).toEqual([]);
    expect(elsewhere.warnings.join()).toContain('no user id under');
  });

  const failing: [string, (s: ReturnType<typeof setup>) => Promise<AuthResult>, string][] = [
    ['a tampered state', async (s) => s.oauth.resume('prov', { code: 'good-code', state: `${await s.stateFor()}x` }, appBase), 'bad state'],
    [
      'a state with a swapped payload',
      async (s) => {
        const [, mac] = (await s.stateFor()).split('.');
        const forged = Buffer.from(JSON.stringify({ p: 'prov', exp: Date.now() * 2, n: 'x' })).toString('base64url');
        return s.oauth.resume('prov', { code: 'good-code', state: `${forged}.${mac}` }, appBase);
      },
      'bad state',
    ],
    ['a missing state', (s) => s.oauth.resume('prov', { code: 'good-code' }, appBase), 'missing state'],
    [
      'a state started in another browser',
      async (s) => s.oauth.resume('prov', { code: 'good-code', state: await s.stateFor(), nonce: 'someone-else' }, appBase),
      'another browser',
    ],
    [
      'a state without the browser nonce',
      async (s) => s.oauth.resume('prov', { code: 'good-code', state: await s.stateFor(), nonce: undefined }, appBase),
      'another browser',
    ],
    ["another provider's state", async (s) => s.oauth.resume('prov', { code: 'good-code', state: await s.stateFor('other') }, appBase), 'another provider'],
    [
      'an expired state',
      async (s) => {
        const state = await s.stateFor();
        s.clock.advance(oauthStateValidMs + 1);
        return s.oauth.resume('prov', { code: 'good-code', state }, appBase);
      },
      'expired',
    ],
    ['a provider error', async (s) => s.oauth.resume('prov', { error: 'access_denied', state: await s.stateFor() }, appBase), 'access_denied'],
    ['a missing code', async (s) => s.oauth.resume('prov', { state: await s.stateFor() }, appBase), 'missing code'],
    ['a code the token endpoint refuses', async (s) => s.oauth.resume('prov', { code: 'bad-code', state: await s.stateFor() }, appBase), 'answered 400'],
    ['a disabled provider', async (s) => s.oauth.resume('gone', { code: 'good-code', state: await s.stateFor() }, appBase), 'disabled'],
  ];

  it.each(failing)('fails on %s, logging why, without logging in', async (_name, run, reason) => {
    const s = setup({ prov: provider(), other: provider(), gone: provider({ enabled: false }) });
    const result = await run(s);
    expect(result).toMatchObject({ success: false, token: null });
    expect(s.calls).toEqual([]);
    expect(s.warnings.join()).toContain(reason);
  });

  it('fails when the token endpoint answers 400 or 200 without access_token', async () => {
    for (const reply of [400, 'github-error'] as const) {
      tokenReply = reply;
      const s = setup();
      expect((await s.oauth.resume('prov', { code: 'good-code', state: await s.stateFor() }, appBase)).success).toBe(false);
      expect(s.calls).toEqual([]);
    }
  });

  it('fails when the user reply lacks the id key, is not JSON-usable, or the user endpoint refuses', async () => {
    for (const [body, cfg] of [
      [{ name: 'no login here', email: 'a@example.test' }, {}],
      [{ login: '' }, {}],
      [{ login: null }, {}],
    ] as const) {
      userBody = body;
      const s = setup({ prov: provider(cfg) });
      expect((await s.oauth.resume('prov', { code: 'good-code', state: await s.stateFor() }, appBase)).success).toBe(false);
      expect(s.calls).toEqual([]);
      expect(s.warnings.join()).toContain('no user id');
    }
    const s = setup({ prov: provider({ userUrl: `${idp}/elsewhere` }) });
    expect((await s.oauth.resume('prov', { code: 'good-code', state: await s.stateFor() }, appBase)).success).toBe(false);
    expect(s.calls).toEqual([]);
  });

  it('never logs the code, the access token or the client secret', async () => {
    tokenReply = 'github-error';
    const s = setup();
    await s.oauth.resume('prov', { code: 'good-code', state: await s.stateFor() }, appBase);
    expect(s.warnings.join()).not.toMatch(/good-code|tok-123|csecret/);
  });
});

describe('accountLogin', () => {
  // Regression: user ids were cleaned by dropping the characters that are not
  // ident characters, so `a+b` and `ab` of one provider shared one account.
  it('maps distinct user ids of a provider to distinct logins, refusing ids that are not idents', () => {
    expect(accountLogin('ab', 'gh')).toBe('ab@gh');
    expect(accountLogin('a+b', 'gh')).toBeUndefined();
    expect(accountLogin('Alice.Smith!', 'gh')).toBeUndefined();
    expect(accountLogin('auth0|123', 'gh')).toBeUndefined();
    expect(accountLogin('ünï', 'gh')).toBeUndefined();
    expect(accountLogin('', 'gh')).toBeUndefined();
    expect(accountLogin('x'.repeat(252), 'gh')).toBeUndefined();
    expect(accountLogin('Bob_Smith-2@corp.example', 'gh')).toBe('bob_smith-2@corp.example@gh');
    expect(accountLogin('42', 'gh')).toBe('42@gh');
  });

  it('refuses a user reply whose id is not an ident, logging why', async () => {
    userBody = { login: 'a+b' };
    const s = setup();
    expect((await s.oauth.resume('prov', { code: 'good-code', state: await s.stateFor() }, appBase)).success).toBe(false);
    expect(s.calls).toEqual([]);
    expect(s.warnings.join()).toContain('is not an ident');
  });
});

describe('findUserValue', () => {
  it('reads the dotted path, or a top-level key holding dots', () => {
    expect(findUserValue({ a: { b: 'x' }, b: 'y' }, 'a.b')).toBe('x');
    expect(findUserValue({ 'a.b': 'dotted key' }, 'a.b')).toBe('dotted key');
    expect(findUserValue({ id: 12 }, 'id')).toBe(12);
    expect(findUserValue({ id: true }, 'id')).toBeUndefined();
  });

  // Regression: a value under the key anywhere in the reply was taken when the path held none, so a
  // field the user controls (a nested object of their profile) could choose the account they sign in to.
  it('never searches the reply for the key elsewhere', () => {
    expect(findUserValue({ list: [{ other: 1 }, { login: 'deep' }], more: { login: 'later' } }, 'login')).toBeUndefined();
    expect(findUserValue({ login: { name: 'obj' }, x: { login: 'inner' } }, 'login')).toBeUndefined();
    expect(findUserValue({ profile: { bio: { id: 'admin' } } }, 'id')).toBeUndefined();
    expect(findUserValue({ data: { user: { login: 'x' } } }, 'data.login')).toBeUndefined();
  });
});
