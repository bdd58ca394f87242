import type { Readable } from 'node:stream';
import { DataStore, ERRORS, Upload } from '@tus/utils';
import type { TusUploads } from '../../core/uploads/tus-uploads.js';

/**
 * The tus data store over Pier's binary stores. Creation itself happens in
 * the server's `onUploadCreate` hook, which knows the share and the accessor;
 * `create` only confirms it. Offsets always come from the binary store.
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
    const s = await this.uploads.state(id);
    if (!s) throw ERRORS.FILE_NOT_FOUND;
    return new Upload({ id, size: s.length, offset: s.offset });
  }

  override async write(stream: Readable, id: string, offset: number): Promise<number> {
    return this.uploads.write(id, offset, stream);
  }

  override async remove(id: string): Promise<void> {
    await this.uploads.remove(id);
  }
}
