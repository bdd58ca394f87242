/**
 * The database schema as Kysely sees it. Created by the migrations in
 * `server/db/migrations/` on SQLite, PostgreSQL and MariaDB alike.
 *
 * Portable choices: timestamps and durations are BIGINT epoch/milliseconds,
 * flags are SMALLINT 0/1 (read them with `toBool`), ids are VARCHAR(254).
 * Rows never leave the data layer: each repository maps them to API types.
 */
import type { Generated } from 'kysely';

export interface AccountTable {
  id: string;
  /** lower-cased, unique */
  login: string;
  /** `intern`, `extern` or `oauth:<provider>` */
  source: string;
  /** `Active` or `Disabled` */
  state: string;
  /** scrypt hash; `''` for accounts that do not log in internally */
  password: string;
  email: string | null;
  admin: number;
  login_count: number;
  last_login: number | null;
  created: number;
  /** session generation, carried in tokens; bumping it ends every session (migration 0003) */
  session_gen: Generated<number>;
}

export interface InvitationTable {
  id: string;
  created: number;
}

export interface AliasTable {
  id: string;
  account_id: string;
  name: string;
  /** milliseconds */
  validity: number;
  enabled: number;
  created: number;
  /** plain text for guests, or null (migration 0005) */
  message: string | null;
  /** bytes one share of the link may hold, or null for `share.max-size` (migration 0005) */
  max_size: number | null;
  /** epoch ms after which the link takes no uploads, or null (migration 0005) */
  expires: number | null;
}

export interface AliasMemberTable {
  id: string;
  alias_id: string;
  account_id: string;
}

export interface ShareTable {
  id: string;
  account_id: string;
  alias_id: string | null;
  name: string | null;
  /** milliseconds */
  validity: number;
  max_views: number;
  /** scrypt hash or null */
  password: string | null;
  description: string | null;
  created: number;
  /** the name a guest gave when sending, cleaned (migration 0005) */
  sender: string | null;
  /** the name the server composed for a guest share, while it stands (migration 0005) */
  auto_name: string | null;
  /** a keyed hash of the address of the guest who created it, or null (migration 0006) */
  guest_key: Generated<string | null>;
  /** 1 when the owner asked for a mail when the share is downloaded (migration 0010) */
  notify_on_download: Generated<number>;
  /** recipients numbered so far (migration 0010) */
  activity_recipients: Generated<number>;
  /** epoch ms of the first complete download (migration 0010) */
  activity_downloaded: number | null;
  /** epoch ms of the last download mail (migration 0010) */
  activity_mailed: number | null;
  /** log entries folded out of `share_activity`, the complete downloads among them, and the newest one's time (migration 0010) */
  activity_folded: Generated<number>;
  activity_folded_downloads: Generated<number>;
  activity_folded_until: number | null;
}

export interface PublishShareTable {
  /** the public id */
  id: string;
  share_id: string;
  enabled: number;
  views: number;
  last_access: number | null;
  publish_date: number;
  publish_until: number;
  created: number;
}

export interface ShareFileTable {
  id: string;
  share_id: string;
  file_id: string;
  filename: string | null;
  created: number;
  /** bytes received so far */
  real_size: number;
}

export interface FileMetaTable {
  file_id: string;
  mimetype: string;
  /** declared length */
  length: number;
  /** lower-case SHA-256 hex, `''` while unknown */
  checksum: string;
  created: number;
  /** id of the binary store holding the bytes */
  store: string;
  /** store-specific location (relative path, object key); `''` when the store derives it */
  location: string;
  /** CRC-32 of the bytes when they were digested as they arrived, else null; see migration 0009 */
  crc32: number | null;
}

export interface FileChunkTable {
  file_id: string;
  chunk_nr: number;
  chunk_len: number;
  chunk_data: Uint8Array;
}

export interface UploadLockTable {
  /** the locked upload (share-file id) */
  id: string;
  /** random token of the node holding the lock */
  owner: string;
  /** epoch ms after which the lock may be taken over */
  expires: number;
}

/** What a multipart request in progress created; see migration 0002. */
export interface PendingUploadTable {
  id: string;
  request_id: string;
  /** `share` or `file` */
  kind: string;
  /** the share id, or the file id (`file_meta.file_id`) */
  ref_id: string;
  /** for files: the store and location of the binary, known before its row exists */
  store: string;
  location: string;
  /** epoch ms; renewed while the request runs */
  expires: number;
}

/** A mail an account sent through `/sec/mail/send`; see migration 0004. */
export interface SentMailTable {
  id: string;
  account_id: string;
  /** how many mails it made: one per recipient */
  recipients: number;
  created: number;
}

/** A share whose guest upload was announced by mail; see migration 0004. */
export interface GuestNotificationTable {
  share_id: string;
  created: number;
}

/** A session ended by a plain logout; see migration 0006. */
export interface EndedSessionTable {
  /** the session id its tokens carry */
  id: string;
  account_id: string;
  /** epoch ms after which no token of the session is valid anyway (login + `session-max`) */
  expires: number;
}

/** The id of a deleted or renamed upload link, reserved for its owner; see migration 0006. */
export interface RetiredAliasIdTable {
  id: string;
  account_id: string;
  /** epoch ms */
  retired: number;
}

/** One attempt a rate limit counts; see migration 0006. */
export interface RateLimitHitTable {
  id: string;
  /** SHA-256 (base64url) of what is counted */
  hit_key: string;
  /** epoch ms of the attempt */
  at: number;
  /** epoch ms after which the row is of no more use */
  expires: number;
}

/** A job of the checksum queue and its lease; see migration 0007. */
export interface ChecksumJobTable {
  /** the binary (`file_meta.file_id`) whose checksum is to be computed */
  file_id: string;
  /** random token of the server holding the job; `''` for a job put off after a failure */
  owner: string;
  /** epoch ms after which any server may take the job over */
  expires: number;
}

/** A room link (migration 0008). */
export interface RoomTable {
  id: string;
  account_id: string;
  connection: string;
  name: string;
  created: number;
  valid_until: number;
  enabled: number;
  songs_per_guest: number;
  skip_votes: number;
  fallback_playlist: string | null;
}

/** A guest of a room; the token is kept only as its SHA-256 (migration 0008). */
export interface RoomGuestTable {
  id: string;
  room_id: string;
  name: string;
  token_hash: string;
  joined: number;
  first_added: number | null;
}

/** Who added a queue song through a room, by the daemon's song id and file (migration 0008). */
export interface RoomSongTable {
  room_id: string;
  song_id: number;
  file: string;
  /** `guest` or `fallback` */
  kind: string;
  guest_id: string | null;
  /** the guest's name when the song was added */
  name: string;
  added: number;
}

/** One entry of a share's activity log; see migration 0010. */
export interface ShareActivityTable {
  id: string;
  share_id: string;
  at: number;
  /** `view`, `download`, `zip` or `upload` */
  kind: string;
  recipient: number | null;
  /** the share-file id of a download */
  file_id: string | null;
  bytes: number;
  complete: number;
  client: string;
  address: string;
  /** the guest's name of an upload */
  sender: string | null;
}

export interface Database {
  accounts: AccountTable;
  invitations: InvitationTable;
  aliases: AliasTable;
  alias_members: AliasMemberTable;
  shares: ShareTable;
  publish_shares: PublishShareTable;
  share_files: ShareFileTable;
  file_meta: FileMetaTable;
  file_chunks: FileChunkTable;
  upload_locks: UploadLockTable;
  pending_uploads: PendingUploadTable;
  sent_mails: SentMailTable;
  guest_notifications: GuestNotificationTable;
  ended_sessions: EndedSessionTable;
  retired_alias_ids: RetiredAliasIdTable;
  rate_limit_hits: RateLimitHitTable;
  checksum_jobs: ChecksumJobTable;
  rooms: RoomTable;
  room_guests: RoomGuestTable;
  room_songs: RoomSongTable;
  share_activity: ShareActivityTable;
}

/** Flags are stored as 0/1 (SQLite has no boolean; PostgreSQL returns booleans as-is). */
export const toBool = (v: unknown): boolean => v === true || v === 1 || v === '1' || v === 't';
export const fromBool = (b: boolean): number => (b ? 1 : 0);

// Generated is re-exported so repositories can type inserts that rely on defaults.
export type { Generated };
