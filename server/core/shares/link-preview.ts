/**
 * What a pasted share link may show before anyone opens it (the previews chat
 * apps build from a page's Open Graph tags). Reading it never counts a view,
 * and a share that cannot be opened now shows nothing at all.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { cleanName } from '../uploads/file-name.js';
import { unavailableReason } from './public-share.js';
import { findPublishById } from './publish.repository.js';
import { findFilesOfShare, findShare } from './share.repository.js';

export interface LinkPreview {
  name: string | null;
  password: boolean;
  publishUntil: number;
  files: number;
  /** the sum of the declared file sizes */
  size: number;
  /** the first file's name in the order the recipient's page lists them (by name); null for a share with a password (its file names are for those who know it) */
  firstFile: string | null;
}

/**
 * Anyone: the preview of a share that can be opened now (published,
 * unexpired, a view left); null for any other publish id. Counts nothing.
 */
export const findLinkPreview = async (db: Kysely<Database>, publishId: string, now: number): Promise<LinkPreview | null> => {
  const publish = await findPublishById(db, publishId);
  const share = publish && (await findShare(db, publish.shareId));
  if (!publish || !share || unavailableReason(publish, share, now, true) !== null) return null;
  const files = await findFilesOfShare(db, share.id);
  const password = share.passwordHash !== null;
  return {
    name: share.name === null ? null : cleanName(share.name).trim() || null,
    password,
    publishUntil: publish.publishUntil,
    files: files.length,
    size: files.reduce((n, f) => n + f.length, 0),
    firstFile: password ? null : (files.map((f) => cleanName(f.filename)).sort((a, b) => a.localeCompare(b))[0] ?? null),
  };
};
