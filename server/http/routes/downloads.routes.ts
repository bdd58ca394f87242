import type { Request, RequestHandler } from 'express';
import type { RouteModule } from '../http-deps.js';
import { userAccessor } from '../request-context.js';
import { publicCredentials } from './open-shares.context.js';
import { fileSelection, sendFile, sendZip, setFileSecurityHeaders } from './downloads.send.js';

const param = (req: Request, name: string): string => String(req.params[name]);

/** File and ZIP downloads: the owner's below `/sec/share/{id}`, the public ones below `/open/share/{pid}`. */
export const downloadRoutes: RouteModule = (api, { shares, downloads, config, log, origin }) => {
  const chunk = config.fileDownload.downloadChunkSize;
  const dlog = log.child('downloads');
  const secured: RequestHandler = (_req, res, next) => {
    setFileSecurityHeaders(res);
    next();
  };

  const ownerFile: RequestHandler = async (req, res) => {
    const file = await downloads.ownerFile(userAccessor(res), param(req, 'id'), param(req, 'fid'));
    await sendFile(req, res, file, downloads, chunk, dlog);
  };
  api.route('get', '/api/v2/sec/share/{id}/file/{fid}', secured, ownerFile);
  api.route('head', '/api/v2/sec/share/{id}/file/{fid}', secured, ownerFile);

  api.route('get', '/api/v2/sec/share/{id}/zip', secured, async (req, res) => {
    const shareId = param(req, 'id');
    const { name, entries } = await downloads.ownerZipEntries(userAccessor(res), shareId, fileSelection(req));
    await sendZip(res, name ?? shareId, entries, downloads, dlog);
  });

  const publicFile: RequestHandler = async (req, res) => {
    const access = await shares.openBytes(param(req, 'pid'), publicCredentials(req, origin));
    const file = await downloads.shareFile(access.share.id, param(req, 'fid'));
    await sendFile(req, res, file, downloads, chunk, dlog);
  };
  api.route('get', '/api/v2/open/share/{pid}/file/{fid}', secured, publicFile);
  api.route('head', '/api/v2/open/share/{pid}/file/{fid}', secured, publicFile);

  api.route('get', '/api/v2/open/share/{pid}/zip', secured, async (req, res) => {
    const pid = param(req, 'pid');
    const access = await shares.openBytes(pid, publicCredentials(req, origin));
    const entries = await downloads.zipEntries(access.share.id, fileSelection(req));
    await sendZip(res, access.share.name ?? pid, entries, downloads, dlog);
  });
};
