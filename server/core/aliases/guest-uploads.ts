/**
 * When a guest upload is complete. The `guest-upload-completed` event is
 * emitted from here, on two signals:
 *
 * - a guest's multipart `/alias/upload` or `/alias/upload/{id}/files/add`
 *   that succeeded (one request carries the whole upload; curl and ShareX use
 *   it), and
 * - `POST /alias/mail/notify/{shareId}`, which the guest page calls once
 *   every file went through tus (tus alone cannot tell the last file).
 *
 * The event counts the share's complete files and their size, and comes once
 * per share state: the same share announced again without new files (a
 * multipart upload followed by a notify call, a repeated call) emits nothing;
 * a share that got more files is announced again. Nothing is emitted for a
 * share without complete files. Announcing never fails an upload.
 */
import type { Kysely } from 'kysely';
import type { Logger } from '../../common/log.js';
import type { BasicResult } from '../../common/result.js';
import type { Database } from '../../db/schema.js';
import type { ServerEventBus } from '../events/events.js';
import type { MailService } from '../mail/mail.service.js';
import { requireShareAccess } from '../shares/share-access.js';
import type { UploadService } from '../uploads/upload.service.js';
import type { GuestAccessor } from './alias.service.js';

export interface GuestUploadDeps {
  db: Kysely<Database>;
  events: ServerEventBus;
  mail: MailService;
  log: Logger;
}

export interface GuestUploads {
  /**
   * Guests, for a share of their alias (`not-found` otherwise): announces the
   * upload (the event) and mails the owner and members (`notifyUpload`).
   */
  notify(guest: GuestAccessor, shareId: string, baseUrl: string): Promise<BasicResult>;
  /** The upload service with guest multipart uploads announced; everything else is passed through unchanged. */
  withEvents(uploads: UploadService): UploadService;
}

/** Announced share states kept, to emit once per state; the oldest are forgotten first. */
const MAX_REMEMBERED = 10_000;

/** The complete files of a share (stored size equal to the declared length) and their total size. */
const completeFiles = async (db: Kysely<Database>, shareId: string): Promise<{ count: number; size: number }> => {
  const row = await db
    .selectFrom('share_files')
    .innerJoin('file_meta', 'file_meta.file_id', 'share_files.file_id')
    .select((eb) => [eb.fn.countAll<number | string>().as('count'), eb.fn.sum<number | string | null>('file_meta.length').as('size')])
    .where('share_files.share_id', '=', shareId)
    .whereRef('share_files.real_size', '=', 'file_meta.length')
    .executeTakeFirst();
  return { count: Number(row?.count ?? 0), size: Number(row?.size ?? 0) };
};

export const createGuestUploads = (d: GuestUploadDeps): GuestUploads => {
  const announced = new Map<string, string>();

  const announce = async (guest: GuestAccessor, shareId: string): Promise<void> => {
    const files = await completeFiles(d.db, shareId);
    if (files.count === 0) return;
    const state = `${files.count}:${files.size}`;
    if (announced.get(shareId) === state) return;
    announced.delete(shareId);
    announced.set(shareId, state);
    if (announced.size > MAX_REMEMBERED) announced.delete(announced.keys().next().value!);
    d.log.info('A guest upload arrived', { shareId, aliasId: guest.aliasId, files: files.count, size: files.size });
    d.events.emit({
      type: 'guest-upload-completed',
      shareId,
      aliasId: guest.aliasId,
      aliasName: guest.aliasName,
      fileCount: files.count,
      totalSize: files.size,
    });
  };

  const safely = async (guest: GuestAccessor, shareId: string): Promise<void> => {
    try {
      await announce(guest, shareId);
    } catch (e) {
      d.log.error('Announcing a guest upload failed', { shareId, error: e instanceof Error ? e.message : String(e) });
    }
  };

  return {
    async notify(guest, shareId, baseUrl) {
      await requireShareAccess(d.db, guest, shareId);
      await safely(guest, shareId);
      return d.mail.notifyUpload(guest, shareId, baseUrl);
    },

    withEvents(uploads) {
      return {
        ...uploads,
        async upload(a, req) {
          const result = await uploads.upload(a, req);
          if (a.kind === 'alias' && result.success) await safely(a, result.id);
          return result;
        },
        async addFiles(a, shareId, req) {
          const result = await uploads.addFiles(a, shareId, req);
          if (a.kind === 'alias' && result.success) await safely(a, shareId);
          return result;
        },
      };
    },
  };
};
