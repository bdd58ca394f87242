import type { Request, RequestHandler, Response } from 'express';
import type { Transfer, Visitor } from '../../core/activity/activity.service.js';
import type { PublicAccess } from '../../core/shares/public-share.js';
import type { TransferOutcome } from '../transfer-meter.js';
import type { RouteModule } from '../http-deps.js';
import { userAccessor } from '../request-context.js';
import { publicCredentials, setShareCookie } from '../open-share-context.js';
import { fileSelection, sendStoredFile, sendZip, setFileSecurityHeaders } from '../send-download.js';
import { meterTransfer } from '../transfer-meter.js';

const param = (req: Request, name: string): string => String(req.params[name]);

/** File and ZIP downloads: the owner's below `/sec/share/{id}`, the public ones below `/open/share/{pid}`. */
export const downloadRoutes: RouteModule = (api, { shares, downloads, activity, config, log, origin, auth, links }) => {
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
  const openBytes = async (req: Request, res: Response): Promise<PublicAccess & { visitor: Visitor | null }> => {
    const pid = param(req, 'pid');
    const creds = await publicCredentials(req, origin, auth);
    const access = await shares.openBytes(pid, creds);
    if (access.cookie) setShareCookie(res, pid, access.cookie, links.baseUrl(req).startsWith('https:'));
    // the owner's and members' own requests, and HEAD (no bytes), are not logged
    const visitor = access.recipient !== null && req.method === 'GET' ? { recipient: access.recipient, userAgent: creds.userAgent, address: creds.address } : null;
    return { ...access, visitor };
  };

  /** Logs what went out once the answer ended; a file is complete only when every byte of it left (a range covering the whole file included). */
  const logTransfer = (req: Request, res: Response, shareId: string, visitor: Visitor, what: (o: TransferOutcome) => Transfer): void => {
    const base = links.baseUrl(req);
    meterTransfer(res, (o) => {
      if (o.status !== 200 && o.status !== 206) return;
      void activity.sent(shareId, visitor, what(o), base);
    });
  };

  const publicFile: RequestHandler = async (req, res) => {
    const access = await openBytes(req, res);
    const file = await downloads.shareFile(access.share.id, param(req, 'fid'));
    if (access.visitor) {
      logTransfer(req, res, access.share.id, access.visitor, (o) => ({
        kind: 'download',
        fileId: file.id,
        fileName: file.filename || null,
        bytes: o.bytes,
        complete: o.finished && file.storedSize >= file.length && o.bytes >= file.length,
      }));
    }
    await sendStoredFile(req, res, file, downloads, chunk, dlog);
  };
  api.route('get', '/api/v2/open/share/{pid}/file/{fid}', secured, publicFile);
  api.route('head', '/api/v2/open/share/{pid}/file/{fid}', secured, publicFile);

  api.route('get', '/api/v2/open/share/{pid}/zip', secured, async (req, res) => {
    const pid = param(req, 'pid');
    const access = await openBytes(req, res);
    const entries = await downloads.zipEntries(access.share.id, fileSelection(req));
    if (access.visitor) {
      logTransfer(req, res, access.share.id, access.visitor, (o) => ({ kind: 'zip', fileId: null, fileName: null, bytes: o.bytes, complete: o.finished && o.status === 200 }));
    }
    await sendZip(req, res, access.share.name ?? pid, entries, downloads, dlog);
  });
};
