/**
 * Receipts: what happened to a share, for its owner and the members of the
 * upload link it came through. Views, file downloads, ZIPs and guest uploads
 * are logged with the recipient's number, a short client name and the client
 * address; the owner's and members' own requests are not (their `recipient`
 * is null and the caller does not record them). The first complete download
 * raises `share-downloaded` and, when the owner asked, a mail (at most one per
 * share and hour). Recording never fails the request that is logged.
 */
import type { Kysely } from 'kysely';
import type { Clock } from '../../common/clock.js';
import { notFound } from '../../common/errors.js';
import type { Logger } from '../../common/log.js';
import { ok, type BasicResult } from '../../common/result.js';
import type { Database } from '../../db/schema.js';
import type { ServerEventBus } from '../events/events.js';
import type { MailService } from '../mail/mail.service.js';
import type { Accessor } from '../shares/accessor.js';
import { requireShareAccess } from '../shares/share-access.js';
import { findShare } from '../shares/share.repository.js';
import {
  findActivity,
  findTotals,
  insertActivity,
  markDownloaded,
  notifyOnDownloadOf,
  setNotifyOnDownload,
  type ActivityEntry,
} from './activity.repository.js';
import { clientName } from './client-name.js';

export interface ActivityDeps {
  db: Kysely<Database>;
  clock: Clock;
  log: Logger;
  events: ServerEventBus;
  mail: Pick<MailService, 'notifyDownload'>;
  /** entries kept per share (`limits.activity-entries`) */
  keep: number;
  maxPageSize: number;
}

/** Who sent a public request, as the log names them. */
export interface Visitor {
  recipient: number;
  userAgent: string | undefined;
  address: string;
}

/** A file or ZIP sent to a recipient: how many bytes went out, and whether that was all of it. */
export interface Transfer {
  kind: 'download' | 'zip';
  fileId: string | null;
  fileName: string | null;
  bytes: number;
  complete: boolean;
}

export interface ActivityItem {
  at: number;
  kind: ActivityEntry['kind'];
  recipient: number | null;
  fileId: string | null;
  bytes: number;
  complete: boolean;
  client: string;
  address: string;
  sender: string | null;
}

export interface ActivitySummary {
  recipients: number;
  downloads: number;
  lastAt: number | null;
}

export interface ActivityPage {
  items: ActivityItem[];
  /** entries folded out of the log (beyond `limits.activity-entries`): how many, and until when */
  earlier: { entries: number; until: number | null };
}

export interface ActivityService {
  /** Anyone (the public detail route): a recipient opened the share and a view was counted. */
  viewed(shareId: string, v: Visitor): Promise<void>;
  /** Anyone (the public file and ZIP routes): bytes went to a recipient; `baseUrl` is for the owner's mail. */
  sent(shareId: string, v: Visitor, t: Transfer, baseUrl: string): Promise<void>;
  /** The server: files arrived through an upload link (`sender`: the guest's name, if given). */
  uploaded(shareId: string, bytes: number, sender: string | null): Promise<void>;
  /** Owner and members: one page of the log, newest first; `not-found` for anyone else. */
  list(a: Accessor, shareId: string, page: number, pageSize: number): Promise<ActivityPage>;
  /** The numbers for the owner's share detail; zeros for a share without activity. */
  summary(shareId: string): Promise<ActivitySummary>;
  /** Owner and members: whether the share's owner gets a mail when it is downloaded; `not-found` for anyone else. */
  setNotify(a: Accessor, shareId: string, on: boolean): Promise<BasicResult>;
  notifyOnDownload(shareId: string): Promise<boolean>;
}

export const createActivityService = (d: ActivityDeps): ActivityService => {
  const log = d.log;
  const safely = async (what: string, shareId: string, run: () => Promise<void>): Promise<void> => {
    try {
      await run();
    } catch (e) {
      log.error('Recording share activity failed', { what, shareId, error: e instanceof Error ? e.message : String(e) });
    }
  };
  const entry = (v: Visitor | null, rest: Partial<ActivityEntry> & Pick<ActivityEntry, 'kind'>): ActivityEntry => ({
    at: d.clock.now(),
    recipient: v?.recipient ?? null,
    fileId: null,
    bytes: 0,
    complete: false,
    client: v ? clientName(v.userAgent) : '',
    address: v?.address ?? '',
    sender: null,
    ...rest,
  });

  const firstDownload = async (shareId: string, v: Visitor, t: Transfer, baseUrl: string): Promise<void> => {
    const now = d.clock.now();
    const share = await findShare(d.db, shareId);
    if (!share) return;
    if (await markDownloaded(d.db, shareId, now)) {
      d.events.emit({ type: 'share-downloaded', shareId, shareName: share.name, fileName: t.fileName, client: clientName(v.userAgent) });
    }
    if (await notifyOnDownloadOf(d.db, shareId)) await d.mail.notifyDownload(shareId, baseUrl, t.fileName ?? 'ZIP');
  };

  return {
    viewed: (shareId, v) => safely('view', shareId, () => insertActivity(d.db, shareId, entry(v, { kind: 'view' }), d.keep)),
    sent: (shareId, v, t, baseUrl) =>
      safely(t.kind, shareId, async () => {
        await insertActivity(d.db, shareId, entry(v, { kind: t.kind, fileId: t.fileId, bytes: t.bytes, complete: t.complete }), d.keep);
        if (t.complete) await firstDownload(shareId, v, t, baseUrl);
      }),
    uploaded: (shareId, bytes, sender) =>
      safely('upload', shareId, () => insertActivity(d.db, shareId, entry(null, { kind: 'upload', bytes, complete: true, sender }), d.keep)),
    async list(a, shareId, page, pageSize) {
      await requireShareAccess(d.db, a, shareId);
      const items = await findActivity(d.db, shareId, page, Math.min(pageSize, d.maxPageSize));
      const totals = await findTotals(d.db, shareId);
      return { items, earlier: { entries: totals?.folded ?? 0, until: totals?.foldedUntil ?? null } };
    },
    async summary(shareId) {
      const t = await findTotals(d.db, shareId);
      return { recipients: t?.recipients ?? 0, downloads: t?.downloads ?? 0, lastAt: t?.lastAt ?? null };
    },
    async setNotify(a, shareId, on) {
      await requireShareAccess(d.db, a, shareId);
      if (!(await findShare(d.db, shareId))) throw notFound('The share');
      await setNotifyOnDownload(d.db, shareId, on);
      return ok('share.notify-updated', on ? 'You will get a mail when the share is downloaded.' : 'No mail when the share is downloaded.');
    },
    notifyOnDownload: (shareId) => notifyOnDownloadOf(d.db, shareId),
  };
};
