import { AppError } from '../../common/errors.js';
import { ShareUnavailable } from '../../core/shares/public-share.js';
import type { RouteModule } from '../http-deps.js';
import { publicCredentials, setShareCookie } from '../open-share-context.js';

/**
 * The public share detail by publish id; counts one view and sets the share
 * cookie. A share that cannot be opened is a 404 whose `code` says why
 * (`share.unknown`, `share.unpublished`, `share.expired`, `share.used-up`), so
 * the recipient's page can say what to do next.
 */
export const openShareRoutes: RouteModule = (api, { shares, activity, origin, auth, links }) => {
  api.route('get', '/api/v2/open/share/{pid}', async (req, res) => {
    const pid = String(req.params['pid']);
    const base = links.baseUrl(req);
    res.setHeader('Cache-Control', 'no-store');
    try {
      const creds = await publicCredentials(req, origin, auth);
      const view = await shares.openView(pid, creds, base);
      setShareCookie(res, pid, view.cookie, base.startsWith('https:'));
      if (view.counted && view.recipient !== null) {
        await activity.viewed(view.shareId, { recipient: view.recipient, userAgent: creds.userAgent, address: creds.address });
      }
      res.json(view.detail);
    } catch (e) {
      throw e instanceof ShareUnavailable ? new AppError('not-found', e.message, { reason: e.why }) : e;
    }
  });
};
