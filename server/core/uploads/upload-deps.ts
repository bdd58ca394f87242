import type { Kysely } from 'kysely';
import type { Clock } from '../../common/clock.js';
import type { Logger } from '../../common/log.js';
import type { Config } from '../../config/types.js';
import type { Database } from '../../db/schema.js';
import type { ShareRules } from '../shares/share-create.js';
import type { ChecksumQueue } from '../checksums/checksum.queue.js';
import type { StoreRegistry } from '../stores/binary-store.js';
import type { PendingUploads } from './pending-uploads.js';

/** What the upload code needs from the composition root. */
export interface UploadDeps {
  db: Kysely<Database>;
  stores: StoreRegistry;
  clock: Clock;
  log: Logger;
  share: Config['backend']['share'];
  /** files per share, shares per alias and hour */
  limits: Pick<Config['limits'], 'filesPerShare' | 'sharesPerAliasPerHour' | 'sharesPerGuestPerHour' | 'descriptionLength'>;
  checksums: ChecksumQueue;
  /** markers of multipart requests in progress, so a crash leaves nothing half-made */
  pending: PendingUploads;
}

/** The rules a new share is checked against. */
export const newShareRules = (deps: UploadDeps): ShareRules => ({
  maxValidity: deps.share.maxValidity,
  requireSharePassword: deps.share.requireSharePassword,
  sharesPerAliasPerHour: deps.limits.sharesPerAliasPerHour,
  sharesPerGuestPerHour: deps.limits.sharesPerGuestPerHour,
  descriptionLength: deps.limits.descriptionLength,
});

/** The bounds of one share: its total size and its number of files. */
export const shareBounds = (deps: UploadDeps): { maxSize: number; maxFiles: number } => ({
  maxSize: deps.share.maxSize,
  maxFiles: deps.limits.filesPerShare,
});
