import type { Request } from 'express';
import type { RouteModule } from '../http-deps.js';
import { query, userAccessor } from '../request-context.js';

const id = (req: Request): string => String(req.params['id']);
const value = <T>(req: Request): T => (req.body as { value: T }).value;

/** The owner's share routes below `/api/v2/sec/share` (search, detail, changes, publishing, deletion). */
export const shareRoutes: RouteModule = (api, { shares, activity, config, links }) => {
  api.route('get', '/api/v2/sec/share/search', async (_req, res) => {
    const q = query(res);
    const items = await shares.search(
      userAccessor(res),
      (q['q'] as string | undefined) ?? '',
      (q['page'] as number | undefined) ?? 1,
      (q['pageSize'] as number | undefined) ?? config.maxPageSize,
    );
    res.json({ items });
  });

  api.route('get', '/api/v2/sec/share/{id}', async (req, res) => {
    res.json(await shares.detail(userAccessor(res), id(req), links.baseUrl(req)));
  });

  api.route('delete', '/api/v2/sec/share/{id}', async (req, res) => {
    res.json(await shares.remove(userAccessor(res), id(req)));
  });

  api.route('post', '/api/v2/sec/share/{id}/name', async (req, res) => {
    res.json(await shares.setName(userAccessor(res), id(req), value<string>(req)));
  });

  api.route('delete', '/api/v2/sec/share/{id}/name', async (req, res) => {
    res.json(await shares.setName(userAccessor(res), id(req), null));
  });

  api.route('post', '/api/v2/sec/share/{id}/description', async (req, res) => {
    res.json(await shares.setDescription(userAccessor(res), id(req), value<string>(req)));
  });

  api.route('post', '/api/v2/sec/share/{id}/validity', async (req, res) => {
    res.json(await shares.setValidity(userAccessor(res), id(req), value<number>(req)));
  });

  api.route('post', '/api/v2/sec/share/{id}/maxviews', async (req, res) => {
    res.json(await shares.setMaxViews(userAccessor(res), id(req), value<number>(req)));
  });

  api.route('get', '/api/v2/sec/share/{id}/activity', async (req, res) => {
    const q = query(res);
    res.setHeader('Cache-Control', 'no-store');
    res.json(await activity.list(userAccessor(res), id(req), (q['page'] as number | undefined) ?? 1, (q['pageSize'] as number | undefined) ?? config.maxPageSize));
  });

  api.route('post', '/api/v2/sec/share/{id}/notify', async (req, res) => {
    res.json(await activity.setNotify(userAccessor(res), id(req), value<boolean>(req)));
  });

  api.route('post', '/api/v2/sec/share/{id}/password', async (req, res) => {
    res.json(await shares.setPassword(userAccessor(res), id(req), value<string>(req)));
  });

  api.route('delete', '/api/v2/sec/share/{id}/password', async (req, res) => {
    res.json(await shares.setPassword(userAccessor(res), id(req), null));
  });

  api.route('post', '/api/v2/sec/share/{id}/publish', async (req, res) => {
    res.json(await shares.publish(userAccessor(res), id(req), (req.body as { reuseId: boolean }).reuseId));
  });

  api.route('delete', '/api/v2/sec/share/{id}/publish', async (req, res) => {
    res.json(await shares.unpublish(userAccessor(res), id(req)));
  });

  api.route('delete', '/api/v2/sec/share/{id}/file/{fid}', async (req, res) => {
    res.json(await shares.removeFile(userAccessor(res), id(req), String(req.params['fid'])));
  });
};
