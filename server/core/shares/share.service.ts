/**
 * The share operations for the routes: owner search, detail and changes,
 * deletion, publishing, and public access by publish id. Wired once in the
 * composition root.
 */
import type { Kysely } from 'kysely';
import type { Clock } from '../../common/clock.js';
import type { Logger } from '../../common/log.js';
import type { BasicResult } from '../../common/result.js';
import type { Database } from '../../db/schema.js';
import type { RateLimiter } from '../auth/rate-limiter.js';
import type { StoreRegistry } from '../stores/binary-store.js';
import type { Accessor } from './accessor.js';
import { openPublicShare, shareCookieFor, type PublicAccess, type PublicCredentials, type PublicDeps } from './public-share.js';
import { findLinkPreview, type LinkPreview } from './link-preview.js';
import { createShareCookieSigner } from './share-cookie.js';
import type { ShareRules } from './share-create.js';
import { deleteShare, deleteShareFile } from './share-delete.js';
import { describeShare, ownerShareDetail } from './share-detail.js';
import { searchShares } from './share-search.repository.js';
import type { ShareDetail, ShareListItem } from './share.types.js';
import {
  publishShare,
  setShareDescription,
  setShareMaxViews,
  setShareName,
  setSharePassword,
  setShareValidity,
  unpublishShare,
  type UpdateDeps,
} from './share-update.js';

export interface ShareServiceDeps {
  db: Kysely<Database>;
  clock: Clock;
  log: Logger;
  stores: StoreRegistry;
  rules: ShareRules;
  maxPageSize: number;
  serverSecret: Uint8Array;
  /** share-password attempts (see `RateLimiter.attempt`; the subject is the share) */
  limiter: RateLimiter;
}

export interface PublicView {
  detail: ShareDetail;
  /** the share cookie to set (path-scoped to the share by the HTTP layer) */
  cookie: { value: string; maxAgeMs: number };
  /** the private share id, for the activity log (never sent to the recipient) */
  shareId: string;
  /** the recipient that opened the share (null: the owner or a member) and whether this counted a view */
  recipient: number | null;
  counted: boolean;
}

export interface ShareService {
  search(a: Accessor, q: string, page: number, pageSize: number): Promise<ShareListItem[]>;
  detail(a: Accessor, shareId: string, baseUrl: string): Promise<ShareDetail>;
  setName(a: Accessor, shareId: string, name: string | null): Promise<BasicResult>;
  setDescription(a: Accessor, shareId: string, text: string): Promise<BasicResult>;
  setValidity(a: Accessor, shareId: string, validity: number): Promise<BasicResult>;
  setMaxViews(a: Accessor, shareId: string, maxViews: number): Promise<BasicResult>;
  setPassword(a: Accessor, shareId: string, password: string | null): Promise<BasicResult>;
  remove(a: Accessor, shareId: string): Promise<BasicResult>;
  removeFile(a: Accessor, shareId: string, shareFileId: string): Promise<BasicResult>;
  publish(a: Accessor, shareId: string, reuseId: boolean): Promise<BasicResult>;
  unpublish(a: Accessor, shareId: string): Promise<BasicResult>;
  /** Anyone: the public detail by publish id, and the share cookie; counts one view unless the cookie or the viewer says not to (see `openPublicShare`). */
  openView(publishId: string, creds: PublicCredentials, baseUrl: string): Promise<PublicView>;
  /** Anyone: access for file and ZIP requests by publish id; the same rules and counting as `openView`. */
  openBytes(publishId: string, creds: PublicCredentials): Promise<PublicAccess>;
  /** Anyone: what a pasted link may show (see `findLinkPreview`); null unless the share can be opened now. Counts nothing. */
  linkPreview(publishId: string): Promise<LinkPreview | null>;
}

export const createShareService = (d: ShareServiceDeps): ShareService => {
  const update: UpdateDeps = { db: d.db, clock: d.clock, rules: d.rules };
  const removal = { db: d.db, stores: d.stores, log: d.log };
  const pub: PublicDeps = {
    db: d.db,
    clock: d.clock,
    log: d.log,
    signer: createShareCookieSigner(d.serverSecret),
    limiter: d.limiter,
  };
  return {
    search: (a, q, page, pageSize) => searchShares(d.db, a, { q, page, pageSize: Math.min(pageSize, d.maxPageSize) }, d.clock.now()),
    detail: (a, shareId, baseUrl) => ownerShareDetail(d.db, a, shareId, baseUrl, d.clock.now()),
    setName: (a, id, name) => setShareName(update, a, id, name),
    setDescription: (a, id, text) => setShareDescription(update, a, id, text),
    setValidity: (a, id, v) => setShareValidity(update, a, id, v),
    setMaxViews: (a, id, v) => setShareMaxViews(update, a, id, v),
    setPassword: (a, id, pw) => setSharePassword(update, a, id, pw),
    remove: (a, id) => deleteShare(removal, a, id),
    removeFile: (a, id, fid) => deleteShareFile(removal, a, id, fid),
    publish: (a, id, reuseId) => publishShare(update, a, id, reuseId),
    unpublish: (a, id) => unpublishShare(update, a, id),
    async openView(publishId, creds, baseUrl) {
      const access = await openPublicShare(pub, publishId, creds);
      const filesUrl = `${baseUrl}/api/v2/open/share/${encodeURIComponent(publishId)}`;
      const detail = await describeShare(d.db, access.share, access.publish, { key: publishId, filesUrl, public: true }, d.clock.now());
      return { detail, shareId: access.share.id, cookie: access.cookie ?? shareCookieFor(pub, access, access.recipient ?? 0), recipient: access.recipient, counted: access.counted };
    },
    openBytes: (publishId, creds) => openPublicShare(pub, publishId, creds),
    linkPreview: (publishId) => findLinkPreview(d.db, publishId, d.clock.now()),
  };
};
