/**
 * The generic result: business outcomes travel as values, not exceptions.
 * `code` names the outcome for clients that say it in their own words;
 * `message` is the English text, which clients that ignore `code` show as it is.
 */
export const resultCodes = [
  // failures that stop a request (`AppError`), by error code
  'error.bad-request',
  'error.forbidden',
  'error.not-found',
  'error.conflict',
  'error.locked',
  'error.too-large',
  'error.unsupported-type',
  'error.range-not-satisfiable',
  'error.domain-check',
  'error.storage-full',
  'error.rate-limited',
  'error.upgrade-required',
  'error.misdirected',
  'error.unavailable',
  'error.timeout',
  'error.internal',
  'auth.ok',
  'auth.failed',
  'auth.too-many-attempts',
  'auth.logged-out',
  'auth.signed-out-everywhere',
  'signup.done',
  'signup.closed',
  'signup.invite-invalid',
  'signup.invites-disabled',
  'signup.invite-password-wrong',
  'signup.invite-created',
  'signup.too-many',
  'account.created',
  'account.exists',
  'account.modified',
  'account.deleted',
  'account.own-demote',
  'account.own-delete',
  'account.email-changed',
  'account.email-deleted',
  'account.password-available',
  'account.password-unavailable',
  'account.not-internal',
  'account.password-wrong',
  'account.password-changed',
  'account.password-too-short',
  'share.created',
  'share.files-added',
  'share.too-many-files',
  'share.deleted',
  'share.file-deleted',
  'share.name-updated',
  'share.name-deleted',
  'share.description-updated',
  'share.validity-updated',
  'share.validity-exceeded',
  'share.max-views-updated',
  'share.notify-updated',
  'share.password-updated',
  'share.password-deleted',
  'share.password-mandatory',
  'share.published',
  // also why a public link does not open: the share is not published (any more)
  'share.unpublished',
  'share.password-required',
  'share.password-wrong',
  'share.too-many-passwords',
  // why a public share link does not open
  'share.expired',
  'share.used-up',
  'share.unknown',
  'alias.created',
  'alias.modified',
  'alias.deleted',
  'alias.validity-exceeded',
  'alias.unknown-members',
  'alias.id-taken',
  'alias.too-many-uploads',
  'alias.max-size-exceeded',
  'mail.sent',
  'mail.partly-sent',
  'mail.failed',
  'mail.disabled',
  'mail.no-recipients',
  'mail.no-sender',
  'mail.already-notified',
  'mail.alias-limit',
  'mail.too-many',
  'player.covers-cleared',
  'room.created',
  'room.modified',
  'room.deleted',
  'room.validity-exceeded',
  'room.guest-signed-out',
  'room.song-added',
  'room.song-removed',
  'room.song-limit',
  'room.full',
] as const;

export type ResultCode = (typeof resultCodes)[number];

export interface BasicResult {
  success: boolean;
  message: string;
  code: ResultCode;
}

export interface IdResult extends BasicResult {
  id: string;
}

export const ok = (code: ResultCode, message: string): BasicResult => ({ success: true, message, code });
export const fail = (code: ResultCode, message: string): BasicResult => ({ success: false, message, code });
export const okId = (id: string, code: ResultCode, message: string): IdResult => ({ success: true, message, code, id });
export const failId = (code: ResultCode, message: string): IdResult => ({ success: false, message, code, id: '' });
