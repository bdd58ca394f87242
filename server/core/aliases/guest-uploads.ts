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
 *
 * Announcing also names a share that nobody named (`guest-share-name.ts`),
 * from the sender's name the guest page sent with `notify` and the share's
 * complete files; the name is renewed as files arrive while it is still the
 * one the server gave, so a name someone chose is never replaced.
 */
import type { Kysely } from 'kysely';
import type { Logger } from '../../common/log.js';
import type { BasicResult } from '../../common/result.js';
import type { Database } from '../../db/schema.js';
import type { ActivityService } from '../activity/activity.service.js';
import type { ServerEventBus } from '../events/events.js';
import type { MailService } from '../mail/mail.service.js';
import { requireShareAccess } from '../shares/share-access.js';
import { findCompleteFiles, findShareNaming, setAutoName, updateShare } from '../shares/share.repository.js';
import type { UploadService } from '../uploads/upload.service.js';
import type { GuestAccessor } from './alias.service.js';
import { cleanSender, guestShareName, kindOf, type FileKind, type NamingRules } from './guest-share-name.js';

export interface GuestUploadDeps {
  db: Kysely<Database>;
  /** the share's activity log gets an `upload` entry per announced state */
  activity?: Pick<ActivityService, 'uploaded'>;
  events: ServerEventBus;
  mail: MailService;
  log: Logger;
  naming: NamingRules;
}

export interface GuestUploads {
  /**
   * Guests, for a share of their alias (`not-found` otherwise): keeps the
   * sender's name (`cleanSender`: `bad-request` when too long), announces the
   * upload (the name, the event) and mails the owner and members (`notifyUpload`).
   */
  notify(guest: GuestAccessor, shareId: string, baseUrl: string, sender?: string | null): Promise<BasicResult>;
  /** The upload service with guest multipart uploads announced; everything else is passed through unchanged. */
  withEvents(uploads: UploadService): UploadService;
}

/** Announced share states kept, to emit once per state; the oldest are forgotten first. */
const MAX_REMEMBERED = 10_000;

/** The complete files of a share (stored size equal to the declared length): how many, their total size, what they are. */
const completeFiles = async (db: Kysely<Database>, shareId: string): Promise<{ count: number; size: number; kind: FileKind }> => {
  const files = await findCompleteFiles(db, shareId);
  return { count: files.length, size: files.reduce((n, f) => n + f.length, 0), kind: kindOf(files.map((f) => f.mimetype)) };
};

/**
 * Names the share from its sender and files unless somebody named it; the
 * update re-checks that, so a rename at the same moment wins. Resolves with
 * the share's name.
 */
const nameShare = async (db: Kysely<Database>, rules: NamingRules, shareId: string, files: { count: number; kind: FileKind }): Promise<string> => {
  const share = await findShareNaming(db, shareId);
  if (!share) return '';
  const unnamed = !share.name || share.name === share.autoName;
  if (!unnamed) return share.name!;
  const name = guestShareName(share, files, rules);
  if (name === share.name) return name;
  await setAutoName(db, shareId, name);
  return name;
};

export const createGuestUploads = (d: GuestUploadDeps): GuestUploads => {
  const announced = new Map<string, string>();

  const announce = async (guest: GuestAccessor, shareId: string): Promise<void> => {
    const files = await completeFiles(d.db, shareId);
    if (files.count === 0) return;
    const shareName = await nameShare(d.db, d.naming, shareId, files);
    const state = `${files.count}:${files.size}`;
    if (announced.get(shareId) === state) return;
    announced.delete(shareId);
    announced.set(shareId, state);
    if (announced.size > MAX_REMEMBERED) announced.delete(announced.keys().next().value!);
    d.log.info('A guest upload arrived', { shareId, aliasId: guest.aliasId, files: files.count, size: files.size });
    const sender = (await findShareNaming(d.db, shareId))?.sender ?? null;
    await d.activity?.uploaded(shareId, files.size, sender);
    d.events.emit({
      type: 'guest-upload-completed',
      shareId,
      aliasId: guest.aliasId,
      aliasName: guest.aliasName,
      shareName,
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
    async notify(guest, shareId, baseUrl, sender) {
      const clean = cleanSender(sender);
      await requireShareAccess(d.db, guest, shareId);
      if (clean) await updateShare(d.db, shareId, { sender: clean });
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
