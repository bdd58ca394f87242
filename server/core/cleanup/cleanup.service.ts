import type { Kysely } from 'kysely';
import type { Clock } from '../../common/clock.js';
import type { Logger } from '../../common/log.js';
import type { Database } from '../../db/schema.js';
import { deleteInvitationsBefore } from '../signup/invitation.repository.js';
import type { StoreRegistry } from '../stores/binary-store.js';
import { PENDING_TTL_MS, type PendingUploads } from '../uploads/pending-uploads.js';
import {
  deleteOrphanedMeta,
  deleteShareRows,
  expiredPublishedShares,
  orphanedFiles,
  staleUnpublishedShares,
} from './cleanup.repository.js';

export interface CleanupReport {
  expiredShares: number;
  staleShares: number;
  invitations: number;
  files: number;
  failures: number;
}

export interface CleanupSettings {
  enabled: boolean;
  interval: number;
  invalidAge: number;
  maxValidity: number;
  inviteTime: number;
}

/**
 * Data that no one can use any more leaves a file with no share: file data is
 * only removed when no share references it (a fresh upload whose share-file
 * row is not written yet is protected by `orphanGraceMs`).
 */
const orphanGraceMs = 60 * 60_000;
const batch = 200;

export interface CleanupJob {
  /**
   * Runs one cleanup pass: published shares expired longer than
   * `invalid-age`, unpublished shares older than `max-validity` +
   * `invalid-age`, expired invitations, and file data no share references
   * (including incomplete uploads whose share is gone). Safe to run on
   * several servers at once: every delete is conditional and idempotent.
   */
  runOnce(): Promise<CleanupReport>;
  /** Starts the periodic job: a first pass a minute after start-up (or one `interval` when that is shorter), then every `interval`. */
  start(): void;
  stop(): Promise<void>;
}

export const createCleanupJob = (deps: {
  db: Kysely<Database>;
  stores: StoreRegistry;
  /** interrupted multipart uploads: recovered on every pass and every PENDING_TTL_MS */
  pending: PendingUploads;
  clock: Clock;
  log: Logger;
  settings: CleanupSettings;
  /** delay of the first pass after `start()` */
  firstRunDelayMs?: number;
}): CleanupJob => {
  const { db, stores, clock, log, settings } = deps;
  let timer: NodeJS.Timeout | undefined;
  let recovery: NodeJS.Timeout | undefined;
  let running: Promise<CleanupReport> | undefined;

  const deleteShares = async (find: (limit: number) => Promise<string[]>): Promise<number> => {
    let total = 0;
    for (;;) {
      const ids = await find(batch);
      if (ids.length === 0) return total;
      total += await deleteShareRows(db, ids);
      if (ids.length < batch) return total;
    }
  };

  const deleteOrphans = async (report: CleanupReport): Promise<void> => {
    const before = clock.now() - orphanGraceMs;
    const failedIds = new Set<string>();
    for (;;) {
      const files = (await orphanedFiles(db, before, batch + failedIds.size)).filter((f) => !failedIds.has(f.fileId));
      if (files.length === 0) return;
      for (const f of files) {
        try {
          // Row first: once it is gone no one else serves the bytes; a second node finds nothing to do.
          if (await deleteOrphanedMeta(db, f.fileId)) {
            const store = stores.get(f.store);
            if (store) await store.delete(f);
            else log.warn('File data in a store that is not enabled was left in place', { fileId: f.fileId, store: f.store });
            report.files++;
          }
        } catch (e) {
          failedIds.add(f.fileId);
          report.failures++;
          log.warn('Could not remove file data', { fileId: f.fileId, error: String(e) });
        }
      }
      if (files.length < batch) return;
    }
  };

  const pass = async (): Promise<CleanupReport> => {
    const now = clock.now();
    const report: CleanupReport = { expiredShares: 0, staleShares: 0, invitations: 0, files: 0, failures: 0 };
    await deps.pending.recoverAbandoned();
    report.expiredShares = await deleteShares((n) => expiredPublishedShares(db, now - settings.invalidAge, n));
    report.staleShares = await deleteShares((n) =>
      staleUnpublishedShares(db, now - settings.maxValidity - settings.invalidAge, n),
    );
    report.invitations = await deleteInvitationsBefore(db, now - settings.inviteTime);
    await deleteOrphans(report);
    log.info('Cleanup finished', { ...report });
    return report;
  };

  const runOnce = (): Promise<CleanupReport> => {
    // One pass at a time in this process; other processes are safe by construction.
    running ??= pass().finally(() => {
      running = undefined;
    });
    return running;
  };

  const schedule = (delay: number): void => {
    timer = setTimeout(() => {
      runOnce()
        .catch((e: unknown) => log.error('Cleanup failed', { error: String(e) }))
        .finally(() => {
          if (timer) schedule(settings.interval);
        });
    }, Math.min(delay, 2 ** 31 - 1));
    timer.unref();
  };

  return {
    runOnce,
    start() {
      // Interrupted uploads are removed whether or not the cleanup job is enabled.
      recovery ??= setInterval(() => {
        deps.pending.recoverAbandoned().catch((e: unknown) => log.warn('Could not remove interrupted uploads', { error: String(e) }));
      }, PENDING_TTL_MS);
      recovery.unref();
      if (!settings.enabled || timer) return;
      schedule(Math.min(settings.interval, deps.firstRunDelayMs ?? 60_000));
    },
    async stop() {
      if (recovery) clearInterval(recovery);
      recovery = undefined;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await running?.catch(() => undefined);
    },
  };
};
