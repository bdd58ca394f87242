/**
 * The SHA-256 and CRC-32 of a file, computed on the calling thread as its
 * bytes pass on their way into the store. The CRC is stored so that a ZIP can
 * put it into an entry's local header without reading the file first.
 */
import { createHash, type Hash } from 'node:crypto';
import { crc32 } from 'node:zlib';

export interface FileDigest {
  /** the lower-case hex SHA-256 of every byte given to `update` */
  checksum: string;
  /** their CRC-32 (unsigned) */
  crc32: number;
}

export class RunningDigest {
  private readonly sha: Hash = createHash('sha256');
  private crc = 0;

  update(chunk: Uint8Array): void {
    this.sha.update(chunk);
    this.crc = crc32(chunk, this.crc);
  }

  /** Ends the digest. */
  digest(): FileDigest {
    return { checksum: this.sha.digest('hex'), crc32: this.crc >>> 0 };
  }
}
