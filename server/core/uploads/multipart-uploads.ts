/**
 * Multipart uploads (curl, ShareX): `/upload` creates a share from the `meta`
 * part and stores every file part in it; `/{id}/files/add` adds the file
 * parts to an existing share. All or nothing: when any file is refused, the
 * files of this request (rows and binaries) and, for `/upload`, the share are
 * removed before the failure is answered.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { badRequest } from '../../common/errors.js';
import { ok, type BasicResult, type IdResult, okId } from '../../common/result.js';
import type { Accessor } from '../shares/accessor.js';
import { requireShareAccess } from '../shares/share-access.js';
import { createShare, type ShareProperties } from '../shares/share-create.js';
import { deleteShareRow, folderNameOf } from '../shares/share.repository.js';
import { readMultipart } from './multipart.js';
import { parseShareProperties } from './share-properties.js';
import { removeCreated, storeStreamedFile, type CreatedFile } from './streamed-file.js';
import { newShareRules, type UploadDeps } from './upload-deps.js';

/** A multipart upload without `meta` makes a share valid for 2 days and 30 views. */
export const DEFAULT_PROPERTIES: ShareProperties = {
  name: null,
  validity: 2 * 24 * 60 * 60 * 1000,
  description: null,
  maxViews: 30,
  password: null,
};

export interface MultipartRequest {
  headers: IncomingHttpHeaders;
  body: Readable;
}

/** A business refusal (validity, password) that ends the request with `{success:false}`. */
class Refused extends Error {
  constructor(readonly result: IdResult) {
    super(result.message);
  }
}

/**
 * Signed-in users and guests: creates a share from the `meta` part (or the
 * defaults) and stores every file part in it. The `meta` part must come
 * before the files. Business refusals are `{success:false}` results; a
 * refused file throws (`too-large`, `domain-check`, `bad-request`, store
 * errors) after everything of this request was removed.
 */
export const uploadShare = async (deps: UploadDeps, a: Accessor, req: MultipartRequest): Promise<IdResult> => {
  const created: CreatedFile[] = [];
  let share: { id: string; name: string | null } | undefined;
  const rules = newShareRules(deps);
  const pending = deps.pending.begin();
  const create = async (props: ShareProperties) => {
    const r = await createShare(deps.db, deps.clock, a, props, rules);
    if (!r.success) throw new Refused(r);
    share = { id: r.id, name: props.name || null };
    await pending.add('share', r.id);
    return share;
  };
  try {
    await readMultipart(req.headers, req.body, {
      meta: async (value, afterFile) => {
        if (afterFile || share) throw badRequest('meta', 'The meta part must come once, before the file parts.');
        await create(parseShareProperties(value));
      },
      file: async (part) => storeStreamedFile(deps, share ?? (await create(DEFAULT_PROPERTIES)), part, created, pending),
    });
    share ??= await create(DEFAULT_PROPERTIES);
    return okId(share.id, 'share.created', 'Share created.');
  } catch (e) {
    await removeCreated(deps, created);
    if (share) await deleteShareRow(deps.db, share.id);
    if (e instanceof Refused) return e.result;
    throw e;
  } finally {
    await pending.finish();
  }
};

/**
 * Signed-in users and guests with access to the share: stores every file
 * part in share `shareId` (`meta` parts are ignored). `not-found` when the
 * share is not accessible; a refused file throws after this request's files
 * were removed.
 */
export const addFiles = async (deps: UploadDeps, a: Accessor, shareId: string, req: MultipartRequest): Promise<BasicResult> => {
  await requireShareAccess(deps.db, a, shareId);
  const share = { id: shareId, name: await folderNameOf(deps.db, shareId) };
  const created: CreatedFile[] = [];
  const pending = deps.pending.begin();
  try {
    await readMultipart(req.headers, req.body, {
      meta: () => undefined,
      file: (part) => storeStreamedFile(deps, share, part, created, pending),
    });
    return ok('share.files-added', 'File(s) added');
  } catch (e) {
    await removeCreated(deps, created);
    throw e;
  } finally {
    await pending.finish();
  }
};
