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

/** The parts of an `uploadKey`; `FILE_NOT_FOUND` for anything else. Ids never hold a `/`. */
export const partsOf = (key: string): { shareId: string; fileId: string } => {
  const parts = key.split('/');
  if (parts.length !== 2 || parts[0] === '' || parts[1] === '') throw ERRORS.FILE_NOT_FOUND;
  return { shareId: parts[0]!, fileId: parts[1]! };
};

/**
 * The tus data store over Pier's binary stores: `@tus/server` calls it for
 * every tus request. Offsets always come from the binary store, so any
 * server sharing the database can go on with an upload. Ids are
 * `uploadKey`s: a file outside the key's share is not found.
 */
export class PierDataStore extends DataStore {
  constructor(private readonly uploads: TusUploads) {
    super();
    this.extensions = ['creation', 'creation-with-upload', 'termination'];
  }

  /**
   * Creates the file, its length reserved against the share's room; name and
   * type from the metadata the `onUploadCreate` hook settled.
   */
  override async create(upload: Upload): Promise<Upload> {
    const { shareId, fileId } = partsOf(upload.id);
    await this.uploads.create(shareId, {
      id: fileId,
      length: upload.size ?? 0,
      name: upload.metadata?.['filename'] ?? '',
      type: upload.metadata?.['filetype'] ?? '',
    });
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
