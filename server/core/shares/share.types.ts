/** The share shapes of the API, with its field names, as the routes answer them. */
import type { FileKind } from '../aliases/guest-share-name.js';

/** One row of the share search. `published`: null when never or not currently published, else whether still valid. */
export interface ShareListItem {
  id: string;
  name: string | null;
  aliasName: string | null;
  /** the alias the share was uploaded through (its name is `aliasName`) */
  aliasInfo: { id: string; name: string } | null;
  validity: number;
  maxViews: number;
  password: boolean;
  created: number;
  files: number;
  size: number;
  published: boolean | null;
  /** views counted so far (kept across unpublishing); 0 when never published */
  views: number;
  /** end of the current publication; null when not published */
  publishUntil: number | null;
  /** epoch ms of the share's first complete download (a file or the ZIP), null before */
  downloaded: number | null;
  /** whether `name` is the one the server composed for a guest's upload (clients may compose it again in their own language) */
  autoNamed: boolean;
  /** the guest's name of an upload, when given */
  sender: string | null;
  /** what the files are: all images, all videos, else files; null without files */
  filesKind: FileKind | null;
}

export interface SharePublish {
  id: string;
  enabled: boolean;
  views: number;
  publishDate: number;
  publishUntil: number;
  expired: boolean;
  lastAccess: number | null;
}

/** `size` is the declared length; `storedSize` the bytes received (they differ while incomplete). */
export interface ShareFile {
  id: string;
  filename: string;
  size: number;
  mimetype: string;
  /** lower-case SHA-256 hex, `''` while not yet known */
  checksum: string;
  storedSize: number;
  created: number;
}

export interface ShareDetail {
  /** the private share id for the owner; the publish id on the public route */
  id: string;
  name: string | null;
  /** whether `name` is the one the server composed for a guest's upload */
  autoNamed: boolean;
  /** the guest's name of an upload, when given */
  sender: string | null;
  aliasId: string | null;
  aliasName: string | null;
  validity: number;
  maxViews: number;
  password: boolean;
  descriptionRaw: string | null;
  /** markdown: `descriptionRaw` with its mustache file references filled in (the client renders it) */
  description: string | null;
  created: number;
  publishInfo: SharePublish | null;
  files: ShareFile[];
  /** the receipts, for the signed-in owner and members only (null elsewhere): distinct recipients, complete downloads, the last activity */
  activity: { recipients: number; downloads: number; lastAt: number | null } | null;
  /** whether the owner gets a mail when the share is downloaded; null where `activity` is */
  notifyOnDownload: boolean | null;
}
