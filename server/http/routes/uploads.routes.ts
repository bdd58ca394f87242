/**
 * Upload routes, written once per prefix and accessor resolver: `/sec/upload`
 * for signed-in users here; the alias issue mounts the same module under
 * `/alias/upload` with a guest accessor (`uploadRoutesFor`).
 */
import type { Request, Response } from 'express';
import type { ShareProperties } from '../../core/shares/share-create.js';
import type { HttpDeps, RouteModule } from '../http-deps.js';
import { userAccessor } from '../request-context.js';
import { DatabaseLocker } from '../tus/database-locker.js';
import { createTusHandler, type AccessorResolver } from '../tus/tus-handler.js';

export interface UploadMount {
  /** `/api/v2/sec/upload` or `/api/v2/alias/upload` (as written in openapi.yml) */
  prefix: string;
  accessor: AccessorResolver;
}

/** The JSON body of `/new` (already validated against `ShareProperties`). */
const toProperties = (b: Record<string, unknown>): ShareProperties => ({
  name: typeof b['name'] === 'string' ? b['name'] : null,
  validity: Number(b['validity']),
  description: typeof b['description'] === 'string' ? b['description'] : null,
  maxViews: Number(b['maxViews']),
  password: typeof b['password'] === 'string' ? b['password'] : null,
  sender: typeof b['sender'] === 'string' ? b['sender'] : null,
});

const multipart = (req: Request) => ({ headers: req.headers, body: req });

/** One tus locker per upload service, shared by the `/sec` and `/alias` mounts. */
const lockers = new WeakMap<object, DatabaseLocker>();
const lockerFor = ({ uploads, config, clock }: HttpDeps): DatabaseLocker => {
  let l = lockers.get(uploads);
  if (!l) lockers.set(uploads, (l = new DatabaseLocker(uploads.locks, clock, { acquireTimeoutMs: config.limits.uploadLockWait, idleMs: config.limits.uploadIdleTimeout })));
  return l;
};

export const uploadRoutesFor =
  (mount: UploadMount): RouteModule =>
  (api, deps) => {
    const { uploads, links } = deps;
    const p = mount.prefix;
    const accessor = (req: Request, res: Response) => Promise.resolve(mount.accessor(req, res));

    api.route('post', p, async (req, res) => {
      res.json(await uploads.upload(await accessor(req, res), multipart(req)));
    });
    api.route('post', `${p}/new`, async (req, res) => {
      res.json(await uploads.createEmpty(await accessor(req, res), toProperties(req.body as Record<string, unknown>)));
    });
    api.route('post', `${p}/{id}/files/add`, async (req, res) => {
      res.json(await uploads.addFiles(await accessor(req, res), String(req.params['id']), multipart(req)));
    });

    const tus = createTusHandler({
      prefix: p,
      accessor: mount.accessor,
      baseUrl: (req) => links.baseUrl(req),
      uploads: uploads.tus,
      locker: lockerFor(deps),
      log: deps.log.child('tus'),
    });
    api.route('options', `${p}/{id}/files/tus`, tus);
    api.route('post', `${p}/{id}/files/tus`, tus);
    api.route('head', `${p}/{id}/files/tus/{fid}`, tus);
    api.route('patch', `${p}/{id}/files/tus/{fid}`, tus);
    api.route('post', `${p}/{id}/files/tus/{fid}`, tus);
    api.route('delete', `${p}/{id}/files/tus/{fid}`, tus);
  };

/** `/api/v2/sec/upload`: the signed-in user. */
export const uploadRoutes: RouteModule = uploadRoutesFor({
  prefix: '/api/v2/sec/upload',
  accessor: (_req, res) => userAccessor(res),
});
