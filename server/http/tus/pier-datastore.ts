import type { Readable } from 'node:stream';
import { DataStore, ERRORS, Upload } from '@tus/utils';
import type { TusUploads } from '../../core/uploads/tus-uploads.js';

/**
 * The tus id of an upload: the share the request was checked for and the
 * share-file id, `{shareId}/{fileId}`. The share travels with the id into the
 * store, which acts only on a file of that share. Never taken from a URL: the
 * tus handler builds it from the checked route.
 */
export const uploadKey = (shareId: string, fileId: string): string => `${shareId}/${fileId}`;

/** The parts of an `uploadKey`; undefined for anything else. Ids never hold a `/`. */
const parseUploadKey = (key: string): { shareId: string; fileId: string } | undefined => {
  const parts = key.split('/');
  if (parts.length !== 2 || parts[0] === '' || parts[1] === '') return undefined;
  return { shareId: parts[0]!, fileId: parts[1]! };
};

const partsOf = (key: string): { shareId: string; fileId: string } => {
  const parts = parseUploadKey(key);
  if (!parts) throw ERRORS.FILE_NOT_FOUND;
  return parts;
};

/**
 * The tus data store over Pier's binary stores, for the requests the tus
 * server answers (HEAD, OPTIONS, DELETE); creation and appending are answered
 * by the tus handler. Offsets always come from the binary store. Ids
 * are `uploadKey`s: a file outside the key's share is not found.
 */
export class PierDataStore extends DataStore {
  constructor(private readonly uploads: TusUploads) {
    super();
    this.extensions = ['creation', 'creation-with-upload', 'termination'];
  }

  override async create(upload: Upload): Promise<Upload> {
    return upload;
  }

  override async getUpload(id: string): Promise<Upload> {
    const { shareId, fileId } = partsOf(id);
    const s = await this.uploads.state(shareId, fileId);
    if (!s) throw ERRORS.FILE_NOT_FOUND;
    return new Upload({ id, size: s.length, offset: s.offset });
  }

  override async write(stream: Readable, id: string, offset: number): Promise<number> {
    const { shareId, fileId } = partsOf(id);
    return this.uploads.write(shareId, fileId, offset, stream);
  }

  override async remove(id: string): Promise<void> {
    const { shareId, fileId } = partsOf(id);
    await this.uploads.remove(shareId, fileId);
  }
}
