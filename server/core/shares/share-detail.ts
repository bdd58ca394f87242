import type { Kysely } from 'kysely';
import { notFound } from '../../common/errors.js';
import type { Database } from '../../db/schema.js';
import type { Accessor } from './accessor.js';
import { requireShareAccess } from './share-access.js';
import { fillDescription } from './share-description.js';
import { findPublishOfShare, toSharePublish, type PublishRecord } from './publish.repository.js';
import { findFilesOfShare, findShare, toShareFile, type ShareRecord } from './share.repository.js';
import type { ShareDetail } from './share.types.js';
import { findTotals, notifyOnDownloadOf } from '../activity/activity.repository.js';

/**
 * How the reader reaches the share: the id it knows the share by and the URL
 * prefix of its files (`<base>/api/v2/sec/share/<id>` or
 * `<base>/api/v2/open/share/<pid>`).
 */
export interface AccessPath {
  key: string;
  filesUrl: string;
  public: boolean;
  /** whether the reader gets the receipts (`activity`, `notifyOnDownload`): the signed-in owner and members only */
  receipts?: boolean;
}

/** The detail of a share as seen on an access path; the public view hides the private id and the alias. */
export const describeShare = async (
  db: Kysely<Database>,
  share: ShareRecord,
  publish: PublishRecord | undefined,
  path: AccessPath,
  now: number,
): Promise<ShareDetail> => {
  const files = await findFilesOfShare(db, share.id);
  const prefix = `${path.filesUrl}/file/`;
  return {
    id: path.key,
    name: share.name,
    autoNamed: share.autoNamed,
    // a recipient learns the guest's name only where the composed name already says it
    sender: path.public && !share.autoNamed ? null : share.sender,
    aliasId: path.public ? null : share.aliasId,
    aliasName: path.public ? null : share.aliasName,
    validity: share.validity,
    maxViews: share.maxViews,
    password: share.passwordHash !== null,
    descriptionRaw: share.description,
    description: fillDescription(share.description, {
      key: path.key,
      openKey: publish?.id ?? null,
      files,
      fileUrl: (f) => prefix + encodeURIComponent(f.id),
    }),
    created: share.created,
    publishInfo: publish ? toSharePublish(publish, now) : null,
    files: files.map(toShareFile),
    ...(await receiptsOf(db, share.id, path.receipts === true)),
  };
};

const receiptsOf = async (db: Kysely<Database>, shareId: string, shown: boolean): Promise<Pick<ShareDetail, 'activity' | 'notifyOnDownload'>> => {
  if (!shown) return { activity: null, notifyOnDownload: null };
  const totals = await findTotals(db, shareId);
  return {
    activity: { recipients: totals?.recipients ?? 0, downloads: totals?.downloads ?? 0, lastAt: totals?.lastAt ?? null },
    notifyOnDownload: await notifyOnDownloadOf(db, shareId),
  };
};

/**
 * Signed-in users and guests: the detail of a share they may manage, with
 * file URLs below `<baseUrl>/api/v2/<zone>/share/<id>`; 404 otherwise. Never
 * counts a view.
 */
export const ownerShareDetail = async (
  db: Kysely<Database>,
  a: Accessor,
  shareId: string,
  baseUrl: string,
  now: number,
  zone = 'sec',
): Promise<ShareDetail> => {
  await requireShareAccess(db, a, shareId);
  const share = await findShare(db, shareId);
  if (!share) throw notFound('The share');
  const publish = await findPublishOfShare(db, shareId);
  return describeShare(db, share, publish, { key: share.id, filesUrl: `${baseUrl}/api/v2/${zone}/share/${encodeURIComponent(share.id)}`, public: false, receipts: zone === 'sec' }, now);
};
