import { optionalEmail } from '../../common/email.js';
import type { RouteModule } from '../http-deps.js';
import { caller, setAuthCookie } from '../request-context.js';

export const settingsRoutes: RouteModule = (api, { accounts, auth, links }) => {
  api.route('get', '/api/v2/sec/settings/email', async (_req, res) => {
    res.json({ email: await accounts.getEmail(caller(res).accountId) });
  });

  api.route('post', '/api/v2/sec/settings/email', async (req, res) => {
    const email = optionalEmail((req.body as { email: string }).email);
    res.json(await accounts.setEmail(caller(res).accountId, email));
  });

  api.route('delete', '/api/v2/sec/settings/email', async (_req, res) => {
    res.json(await accounts.setEmail(caller(res).accountId, null));
  });

  api.route('get', '/api/v2/sec/settings/password', async (_req, res) => {
    res.json(await accounts.hasPassword(caller(res).accountId));
  });

  api.route('post', '/api/v2/sec/settings/password', async (req, res) => {
    const { oldPassword, newPassword } = req.body as { oldPassword: string; newPassword: string };
    const { token, validMs, ...result } = await auth.changePassword(caller(res), oldPassword, newPassword);
    // the caller's new session: the change ended every other one, its own included
    if (token) setAuthCookie(res, token, validMs, links.baseUrl(req).startsWith('https:'));
    res.json({ ...result, token });
  });
};
