/**
 * `share.max-size` (or the lower size limit of the upload link a share came
 * through) over the sum of all files of a share. Every file reserves
 * its length in `file_meta.length` before a byte is stored: tus uploads the
 * declared length at creation, multipart parts in steps while they stream.
 * Reservations run in a transaction that first locks the share row (an
 * UPDATE that changes nothing: a row lock on PostgreSQL and MariaDB, the
 * write lock on SQLite), so parallel uploads into one share cannot both take
 * the last free bytes.
 */
import type { Kysely } from 'kysely';
import { AppError } from '../../common/errors.js';
import { formatSize } from '../../common/sizes.js';
import type { Database } from '../../db/schema.js';
import { linkMaxSizeOf, lockShare } from '../shares/share.repository.js';
import { insertFile, setLength, shareSize, shareUsage, type NewFile } from './file.repository.js';

type Db = Kysely<Database>;

/** The failure of a reservation, with the bytes that are still free. */
export const quotaExceeded = (maxSize: number, remaining: number): AppError =>
  new AppError('too-large', `Maximum size (${formatSize(maxSize)}) exceeded`, { room: Math.max(0, remaining) });

/** The size limit of a share that came through an upload link with limit `linkMax` (none: null). */
export const linkLimit = (linkMax: number | null | undefined, maxSize: number): number => (linkMax == null ? maxSize : Math.min(maxSize, linkMax));

/** The size limit of a share: `maxSize`, or the lower limit of the upload link it came through. */
export const shareLimit = async (db: Db, shareId: string, maxSize: number): Promise<number> =>
  linkLimit(await linkMaxSizeOf(db, shareId), maxSize);

/**
 * Inserts the rows of a new file if the share has room for its declared
 * length (`used + length <= maxSize`) and holds fewer than `maxFiles` files;
 * otherwise throws `too-large` and inserts nothing.
 */
export const reserveNewFile = async (db: Db, bounds: { maxSize: number; maxFiles: number }, file: NewFile): Promise<void> => {
  const { maxSize, maxFiles } = bounds;
  await db.transaction().execute(async (trx) => {
    const limit = linkLimit((await lockShare(trx, file.shareId)).linkMaxSize, maxSize);
    const { files, used } = await shareUsage(trx, file.shareId);
    if (files >= maxFiles) {
      throw new AppError('too-large', `A share holds at most ${maxFiles} files.`, { reason: 'share.too-many-files' });
    }
    if (used + file.length > limit) throw quotaExceeded(limit, limit - used);
    await insertFile(trx, file);
  });
};

/**
 * Grows the reservation of a streaming file by at least `need` bytes: by an
 * eighth of the free bytes, at most `step`, so parallel uploads into a nearly
 * full share are not starved by one large reservation. Resolves with the new
 * reservation, or throws `too-large` when fewer than `need` bytes are free.
 */
export const growReservation = async (
  db: Db,
  maxSize: number,
  f: { shareId: string; fileId: string; reserved: number },
  need: number,
  step: number,
): Promise<number> =>
  db.transaction().execute(async (trx) => {
    const limit = linkLimit((await lockShare(trx, f.shareId)).linkMaxSize, maxSize);
    const free = limit - (await shareSize(trx, f.shareId));
    if (free < need) throw quotaExceeded(limit, free);
    const reserved = f.reserved + Math.max(need, Math.min(step, Math.floor(free / 8)));
    await setLength(trx, f.fileId, reserved);
    return reserved;
  });
