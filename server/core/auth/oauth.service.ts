import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../common/clock.js';
import { notFound } from '../../common/errors.js';
import { isIdent } from '../../common/ids.js';
import type { Logger } from '../../common/log.js';
import type { OAuthProviderConfig } from '../../config/types.js';
import type { AuthService } from './auth.service.js';
import { loginFailed } from './auth.types.js';
import { requestFailureReason } from './login-modules/http.module.js';
import type { OAuthService } from './oauth.types.js';

/** How long a `state` from `authorizeUrl` is accepted at `resume`. */
export const oauthStateValidMs = 10 * 60_000;
const requestTimeoutMs = 10_000;
const maxReplyBytes = 1024 * 1024;

export interface OAuthServiceDeps {
  providers: Record<string, OAuthProviderConfig>;
  /** the server secret; the state key is derived from it */
  secret: Uint8Array;
  auth: AuthService;
  clock: Clock;
  log: Logger;
}

/** A failure of the code flow; its message is logged, never shown. */
class FlowError extends Error {}

const callbackUrl = (baseUrl: string, id: string) =>
  `${baseUrl.replace(/\/+$/, '')}/api/v2/open/auth/oauth/${encodeURIComponent(id)}/resume`;

/** Reads a reply body as UTF-8, giving up beyond `maxReplyBytes`. */
const readReply = async (res: Response): Promise<string> => {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body ?? []) {
    size += (chunk as Uint8Array).byteLength;
    if (size > maxReplyBytes) throw new FlowError('reply too large'); // leaving the loop cancels the stream
    chunks.push(chunk as Uint8Array);
  }
  return Buffer.concat(chunks).toString('utf8');
};

/**
 * The string or number at the configured path of the user reply: a dotted
 * path (`data.user.name`), or a top-level key that holds dots itself. Never a
 * search through the reply: a value the user can set somewhere else in their
 * profile (a nested object of their own with a `login` key) would otherwise
 * choose the account they sign in to.
 */
export const findUserValue = (json: unknown, key: string): unknown => {
  let at: unknown = json;
  for (const part of key.split('.')) at = isObject(at) ? at[part] : undefined;
  if (typeof at === 'string' || typeof at === 'number') return at;
  const own = isObject(json) ? json[key] : undefined;
  return typeof own === 'string' || typeof own === 'number' ? own : undefined;
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/**
 * The login of a provider's user: `<user id>@<provider id>`, lower-cased
 * like every login, or `undefined` when that is no ident. An id with other
 * characters is refused rather than cleaned: dropping or replacing characters
 * would give two users of the provider (`a+b` and `ab`) one account. Ids are
 * matched without regard to case, as logins are; a provider whose ids differ
 * only in case needs a `user-id-key` that does not (a numeric id).
 */
export const accountLogin = (userId: string, providerId: string): string | undefined => {
  const login = `${userId}@${providerId}`;
  return isIdent(userId) && isIdent(login) ? login.toLowerCase() : undefined;
};

/**
 * The OAuth 2 code flow. The `state` is `<payload>.<HMAC-SHA256>` (base64url),
 * the payload naming the provider and an expiry; its key is derived from the
 * server secret so it never doubles as a session token. Accounts are matched
 * by `<user id>@<provider>` only, never linked by e-mail.
 */
export const createOAuthService = (deps: OAuthServiceDeps): OAuthService => {
  const { providers, auth, clock, log } = deps;
  const stateKey = createHmac('sha256', deps.secret).update('pier/oauth-state/v1').digest();
  const sign = (payload: string) => createHmac('sha256', stateKey).update(payload).digest();

  const provider = (id: string): OAuthProviderConfig | undefined => {
    const p = Object.hasOwn(providers, id) ? providers[id] : undefined;
    return p?.enabled ? p : undefined;
  };

  const newState = (id: string, nonce: string): string => {
    const payload = Buffer.from(JSON.stringify({ p: id, exp: clock.now() + oauthStateValidMs, n: nonce })).toString(
      'base64url',
    );
    return `${payload}.${sign(payload).toString('base64url')}`;
  };

  const checkState = (id: string, state: string | undefined, nonce: string | undefined): void => {
    if (!state || state.length > 2048) throw new FlowError('missing state');
    const [payload = '', mac = '', ...rest] = state.split('.');
    // compared as text: base64url decoding would ignore stray characters
    const given = Buffer.from(mac);
    const expected = Buffer.from(sign(payload).toString('base64url'));
    if (rest.length > 0 || given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new FlowError('bad state signature');
    }
    let claims: { p?: unknown; exp?: unknown; n?: unknown };
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof claims;
    } catch {
      throw new FlowError('malformed state');
    }
    if (claims.p !== id) throw new FlowError('state of another provider');
    if (typeof claims.exp !== 'number' || clock.now() > claims.exp) throw new FlowError('state expired');
    if (!nonce || claims.n !== nonce) throw new FlowError('state started in another browser');
  };

  const send = async (what: string, url: string, init: RequestInit): Promise<string> => {
    try {
      const res = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(requestTimeoutMs) });
      if (res.status >= 200 && res.status < 300) return await readReply(res);
      await res.body?.cancel().catch(() => undefined);
      throw new FlowError(`${what} answered ${res.status}`);
    } catch (e) {
      if (e instanceof FlowError) throw e;
      throw new FlowError(`${what} failed: ${requestFailureReason(e)}`);
    }
  };

  const exchangeCode = async (p: OAuthProviderConfig, code: string, redirectUri: string): Promise<string> => {
    const form = new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      client_id: p.clientId,
      client_secret: p.clientSecret,
    });
    const text = await send('token request', p.tokenUrl, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    let token: unknown;
    let error: unknown;
    try {
      const json = JSON.parse(text) as Record<string, unknown>;
      [token, error] = isObject(json) ? [json['access_token'], json['error']] : [];
    } catch {
      const reply = new URLSearchParams(text);
      [token, error] = [reply.get('access_token'), reply.get('error')];
    }
    if (typeof token !== 'string' || token === '') {
      throw new FlowError(`no access_token in the token reply${typeof error === 'string' ? ` (error ${error.slice(0, 100)})` : ''}`);
    }
    return token;
  };

  const fetchUser = async (p: OAuthProviderConfig, token: string): Promise<unknown> => {
    const text = await send('user request', p.userUrl, {
      headers: { accept: 'application/json', authorization: `Bearer ${token}` },
    });
    try {
      return JSON.parse(text);
    } catch {
      throw new FlowError('user reply is not JSON');
    }
  };

  return {
    async authorizeUrl(id, baseUrl) {
      const p = provider(id);
      if (!p) throw notFound('The login provider');
      const url = new URL(p.authorizeUrl);
      url.searchParams.set('client_id', p.clientId);
      url.searchParams.set('redirect_uri', callbackUrl(baseUrl, id));
      url.searchParams.set('response_type', 'code');
      if (p.scope.trim()) url.searchParams.set('scope', p.scope.trim());
      const nonce = randomBytes(16).toString('base64url');
      url.searchParams.set('state', newState(id, nonce));
      return { url: url.toString(), nonce };
    },

    async resume(id, params, baseUrl) {
      try {
        const p = provider(id);
        if (!p) throw new FlowError('unknown or disabled provider');
        if (params.error) throw new FlowError(`provider error ${params.error.slice(0, 100)}`);
        checkState(id, params.state, params.nonce);
        if (!params.code) throw new FlowError('missing code');
        const token = await exchangeCode(p, params.code, callbackUrl(baseUrl, id));
        const user = await fetchUser(p, token);
        const rawId = findUserValue(user, p.userIdKey);
        const name = typeof rawId === 'string' || typeof rawId === 'number' ? String(rawId) : '';
        if (!name) throw new FlowError(`no user id under "${p.userIdKey}" in the user reply`);
        const login = accountLogin(name, id);
        if (!login) throw new FlowError(`the user id under "${p.userIdKey}" is not an ident (A-Z a-z 0-9 - _ @ .)`);
        const email = p.userEmailKey ? findUserValue(user, p.userEmailKey) : undefined;
        return await auth.loginExternal(login, `oauth:${id}`, typeof email === 'string' ? email : null);
      } catch (e) {
        if (!(e instanceof FlowError)) throw e;
        log.warn('OAuth login failed', { provider: id, reason: e.message });
        return loginFailed();
      }
    },
  };
};
