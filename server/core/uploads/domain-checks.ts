import { AppError, isAppError } from '../../common/errors.js';
import { isStorageFull, messagesOf } from '../../common/storage-full.js';
import type { DomainCheck } from '../../config/types.js';

/**
 * `share.database-domain-checks`: a store failure whose message contains an
 * enabled entry's `native` text (case-insensitive) becomes `domain-check`
 * (422) with the entry's `message`, e.g. a virus scanner rejecting a chunk.
 * Other errors are returned unchanged.
 */
export const mapStoreError = (err: unknown, checks: readonly DomainCheck[]): unknown => {
  if (isAppError(err)) return err;
  const text = messagesOf(err).toLowerCase();
  const hit = checks.find((c) => c.enabled && c.native !== '' && text.includes(c.native.toLowerCase()));
  if (hit) return new AppError('domain-check', hit.message, { cause: err });
  if (isStorageFull(err)) return new AppError('storage-full', 'There is no space left on the server for this upload.', { cause: err });
  return err;
};


