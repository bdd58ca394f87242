import { AppError, isAppError } from '../../common/errors.js';
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
  return hit ? new AppError('domain-check', hit.message, { cause: err }) : err;
};

/** The message of an error and of its causes (drivers wrap the database's text). */
const messagesOf = (err: unknown, depth = 0): string => {
  if (depth > 5 || err === null || err === undefined) return '';
  if (typeof err !== 'object') return String(err);
  const e = err as { message?: unknown; cause?: unknown };
  return `${typeof e.message === 'string' ? e.message : ''}\n${messagesOf(e.cause, depth + 1)}`;
};
