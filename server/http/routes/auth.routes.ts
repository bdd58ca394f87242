import type { Request, RequestHandler, Response } from 'express';
import { unauthenticated } from '../../common/errors.js';
import { ok } from '../../common/result.js';
import { loginFailed, type AuthResult } from '../../core/auth/auth.types.js';
import type { RouteModule } from '../http-deps.js';
import { caller, clearAuthCookie, cookieFromHeader, query, setAuthCookie } from '../request-context.js';

interface UserPass {
  account: string;
  password: string;
}

export const authRoutes: RouteModule = (api, { config, auth, oauth, origin, links }) => {
  const base = (req: Request) => links.baseUrl(req);
  const secure = (req: Request) => base(req).startsWith('https:');
  const answer = (req: Request, res: Response, result: AuthResult) => {
    if (result.success && result.token) setAuthCookie(res, result.token, result.validMs, secure(req));
    res.json(result);
  };

  api.route('post', '/api/v2/open/auth/login', async (req, res) => {
    const { account, password } = req.body as UserPass;
    answer(req, res, await auth.login(account, password, origin.clientAddress(req)));
  });

  api.route('post', '/api/v2/sec/auth/session', async (req, res) => {
    answer(req, res, await auth.renew(caller(res)));
  });

  api.route('post', '/api/v2/sec/auth/logout', async (req, res) => {
    await auth.logout(caller(res));
    clearAuthCookie(res, secure(req));
    res.json(ok('auth.logged-out', 'Logged out.'));
  });

  api.route('post', '/api/v2/sec/auth/logout-all', async (req, res) => {
    await auth.endAllSessions(caller(res).accountId);
    clearAuthCookie(res, secure(req));
    res.json(ok('auth.signed-out-everywhere', 'Signed out everywhere.'));
  });

  const proxy: RequestHandler = async (req, res) => {
    const { enabled, userHeader, emailHeader } = config.backend.auth.proxy;
    if (!enabled) {
      res.json(loginFailed());
      return;
    }
    // anyone can send the header; only a trusted proxy vouches for it
    if (!origin.fromTrustedProxy(req)) throw unauthenticated();
    const user = req.get(userHeader);
    if (!user) {
      res.json(loginFailed());
      return;
    }
    // an empty email-header means none is read
    answer(req, res, await auth.loginExternal(user, 'extern', (emailHeader && req.get(emailHeader)) || null));
  };
  api.route('get', '/api/v2/open/auth/proxy', proxy);
  api.route('post', '/api/v2/open/auth/proxy', proxy);

  // The flow's nonce stays in this browser, so a callback link started elsewhere is refused.
  const OAUTH_COOKIE = 'service_oauth';
  const oauthCookie = (req: Request) => ({
    httpOnly: true,
    sameSite: 'lax' as const,
    path: '/api/v2/open/auth/oauth',
    secure: secure(req),
  });

  api.route('get', '/api/v2/open/auth/oauth/{id}', async (req, res) => {
    const { url, nonce } = await oauth.authorizeUrl(String(req.params['id']), base(req));
    res.cookie(OAUTH_COOKIE, nonce, { ...oauthCookie(req), maxAge: 10 * 60_000 });
    res.redirect(302, url);
  });

  api.route('get', '/api/v2/open/auth/oauth/{id}/resume', async (req, res) => {
    const q = query(res) as { code?: string; state?: string; error?: string };
    const nonce = cookieFromHeader(req.headers.cookie, OAUTH_COOKIE);
    res.clearCookie(OAUTH_COOKIE, oauthCookie(req));
    const result = await oauth.resume(String(req.params['id']), { ...q, nonce }, base(req));
    if (result.success && result.token) setAuthCookie(res, result.token, result.validMs, secure(req));
    res.redirect(302, `${base(req)}/app/login?oauth=${result.success ? '1' : '0'}`);
  });
};
