import type { RouteModule } from '../http-deps.js';
import { publicCredentials, setShareCookie } from './open-shares.context.js';

/** The public share detail by publish id; counts one view and sets the share cookie. */
export const openShareRoutes: RouteModule = (api, { shares, origin, auth, links }) => {
  api.route('get', '/api/v2/open/share/{pid}', async (req, res) => {
    const pid = String(req.params['pid']);
    const base = links.baseUrl(req);
    const view = await shares.openView(pid, await publicCredentials(req, origin, auth), base);
    setShareCookie(res, pid, view.cookie, base.startsWith('https:'));
    res.setHeader('Cache-Control', 'no-store');
    res.json(view.detail);
  });
};
