import type { Request, RequestHandler, Response } from 'express';
import type { PublicAccess } from '../../core/shares/public-share.js';
import type { RouteModule } from '../http-deps.js';
import { userAccessor } from '../request-context.js';
import { publicCredentials, setShareCookie } from '../open-share-context.js';
import { fileSelection, sendStoredFile, sendZip, setFileSecurityHeaders } from '../send-download.js';

const param = (req: Request, name: string): string => String(req.params[name]);

/** File and ZIP downloads: the owner's below `/sec/share/{id}`, the public ones below `/open/share/{pid}`. */
export const downloadRoutes: RouteModule = (api, { shares, downloads, config, log, origin, auth, links }) => {
  const chunk = config.fileDownload.downloadChunkSize;
  const dlog = log.child('downloads');
  const secured: RequestHandler = (_req, res, next) => {
    setFileSecurityHeaders(res);
    next();
  };

  const ownerFile: RequestHandler = async (req, res) => {
    const file = await downloads.ownerFile(userAccessor(res), param(req, 'id'), param(req, 'fid'));
    await sendStoredFile(req, res, file, downloads, chunk, dlog);
  };
  api.route('get', '/api/v2/sec/share/{id}/file/{fid}', secured, ownerFile);
  api.route('head', '/api/v2/sec/share/{id}/file/{fid}', secured, ownerFile);

  api.route('get', '/api/v2/sec/share/{id}/zip', secured, async (req, res) => {
    const shareId = param(req, 'id');
    const { name, entries } = await downloads.ownerZipEntries(userAccessor(res), shareId, fileSelection(req));
    await sendZip(req, res, name ?? shareId, entries, downloads, dlog);
  });

  /**
   * Public access for a file or ZIP request: a request without the share
   * cookie counts a view and gets the cookie, so its browser's further
   * (range) requests count nothing.
   */
  const openBytes = async (req: Request, res: Response): Promise<PublicAccess> => {
    const pid = param(req, 'pid');
    const access = await shares.openBytes(pid, await publicCredentials(req, origin, auth));
    if (access.cookie) setShareCookie(res, pid, access.cookie, links.baseUrl(req).startsWith('https:'));
    return access;
  };

  const publicFile: RequestHandler = async (req, res) => {
    const access = await openBytes(req, res);
    const file = await downloads.shareFile(access.share.id, param(req, 'fid'));
    await sendStoredFile(req, res, file, downloads, chunk, dlog);
  };
  api.route('get', '/api/v2/open/share/{pid}/file/{fid}', secured, publicFile);
  api.route('head', '/api/v2/open/share/{pid}/file/{fid}', secured, publicFile);

  api.route('get', '/api/v2/open/share/{pid}/zip', secured, async (req, res) => {
    const pid = param(req, 'pid');
    const access = await openBytes(req, res);
    const entries = await downloads.zipEntries(access.share.id, fileSelection(req));
    await sendZip(req, res, access.share.name ?? pid, entries, downloads, dlog);
  });
};
