/**
 * The upload service: empty shares for tus clients, multipart uploads, and
 * the tus core the adapter in `server/http/tus/` calls. The routes are the
 * same for signed-in users (`/sec/upload`) and guests (`/alias/upload`); the
 * accessor decides what they may touch.
 */
import type { IdResult, BasicResult } from '../../common/result.js';
import type { Accessor } from '../shares/accessor.js';
import { createShare, type ShareProperties } from '../shares/share-create.js';
import { addFiles, uploadShare, type MultipartRequest } from './multipart-uploads.js';
import { createTusUploads, type TusUploads } from './tus-uploads.js';
import { createUploadLocks, type UploadLocks } from './upload-lock.repository.js';
import { newShareRules, type UploadDeps } from './upload-deps.js';

export interface UploadService {
  /** Signed-in users and guests: an empty share (the web client uploads its files with tus). */
  createEmpty(a: Accessor, props: ShareProperties): Promise<IdResult>;
  /** Multipart `/upload`: see `uploadShare`. */
  upload(a: Accessor, req: MultipartRequest): Promise<IdResult>;
  /** Multipart `/{id}/files/add`: see `addFiles`; `not-found` for a share the accessor may not use. */
  addFiles(a: Accessor, shareId: string, req: MultipartRequest): Promise<BasicResult>;
  tus: TusUploads;
  /** per-upload locks shared by every server on the database */
  locks: UploadLocks;
}

export const createUploadService = (deps: UploadDeps): UploadService => ({
  createEmpty: (a, props) =>
    createShare(deps.db, deps.clock, a, props, newShareRules(deps)),
  upload: (a, req) => uploadShare(deps, a, req),
  addFiles: (a, shareId, req) => addFiles(deps, a, shareId, req),
  tus: createTusUploads(deps),
  locks: createUploadLocks(deps.db, deps.clock),
});
