/**
 * `backend.files.copy-files`: at start-up, before serving, copies the bytes of
 * every file whose `file_meta.store` is the source store into the target
 * store, `parallel` files at a time.
 *
 * Decisions:
 * - The source is never changed: nothing is deleted or rewritten there.
 * - After a copy whose size was verified, `file_meta.store` and `.location`
 *   point to the target. `file_meta` is what every read uses; a copy it does
 *   not record could not be served, would look orphaned to the cleanup job,
 *   and could not be recognised at the next start (a file-system target would
 *   get a second `a (1).txt` on every restart). So after the run the target
 *   serves every file, the source keeps its bytes as a fallback the operator
 *   may remove, and a second run finds nothing left to copy. The intended use:
 *   point `default-store` at the target, run once, disable.
 * - An existing complete copy in a target that derives its location from the
 *   file id (database, S3) is not copied again, only recorded ("existed").
 * - "missing": `file_meta` declares bytes but the source has none.
 * - A store that is not reachable (at start-up or during the run) stops the
 *   copy instead of failing every remaining file: Pier starts without it,
 *   and the next start copies what is left.
 */
import type { Kysely } from 'kysely';
import type { Logger } from '../../common/log.js';
import type { Config } from '../../config/types.js';
import type { Database } from '../../db/schema.js';
import type { BinaryStore, StoreRegistry } from './binary-store.js';
import { filesInStore, nameHintOf, repointFile, type StoredFile } from './copy-files.repository.js';
import { isStoreUnavailable } from './retrying.store.js';

export interface CopyCounts {
  copied: number;
  existed: number;
  missing: number;
  failed: number;
}

type Outcome = keyof CopyCounts;

const PAGE = 200;

async function* storedFiles(db: Kysely<Database>, store: string): AsyncGenerator<StoredFile> {
  let after = '';
  for (;;) {
    const files = await filesInStore(db, store, after, PAGE);
    yield* files;
    if (files.length < PAGE) return;
    after = files[files.length - 1]!.fileId;
  }
}

const copyOne = async (
  db: Kysely<Database>,
  source: BinaryStore,
  target: BinaryStore,
  meta: StoredFile,
): Promise<Outcome> => {
  const from = { fileId: meta.fileId, location: meta.location };
  const size = await source.size(from);
  if (size === 0 && meta.length > 0) return 'missing';
  const repoint = (location: string): Promise<boolean> => repointFile(db, meta.fileId, source.id, target.id, location);
  if (target.type !== 'file-system' && (await target.size({ fileId: meta.fileId, location: '' })) === size) {
    await repoint('');
    return 'existed';
  }
  const location = await target.create(meta.fileId, await nameHintOf(db, meta.fileId));
  const to = { fileId: meta.fileId, location };
  await target.append(to, 0, source.read(from, 0, size), size);
  const copied = await target.size(to);
  if (copied !== size) throw new Error(`copied ${copied} of ${size} bytes`);
  // Another node copied and recorded it first: drop a duplicate plain file.
  if (!(await repoint(location)) && location !== '') await target.delete(to);
  return 'copied';
};

/**
 * Runs the copy when `cfg.enable` is set (the composition root calls it once,
 * before the HTTP server starts). Failures of single files are logged and
 * counted, never thrown; the counts are logged and returned.
 */
export const copyFiles = async (
  registry: StoreRegistry,
  db: Kysely<Database>,
  cfg: Config['backend']['files']['copyFiles'],
  log: Logger,
): Promise<CopyCounts | undefined> => {
  if (!cfg.enable) return undefined;
  const source = registry.get(cfg.source);
  const target = registry.get(cfg.target);
  if (!source || !target) throw new Error(`copy-files: the stores "${cfg.source}" and "${cfg.target}" must be enabled.`);
  log.info('Copying files between stores', { source: source.id, target: target.id, parallel: cfg.parallel });
  const counts: CopyCounts = { copied: 0, existed: 0, missing: 0, failed: 0 };
  const rows = storedFiles(db, source.id);
  let unreachable: string | undefined;
  const worker = async (): Promise<void> => {
    while (unreachable === undefined) {
      const next = await rows.next();
      if (next.done) return;
      const meta = next.value;
      try {
        counts[await copyOne(db, source, target, meta)] += 1;
      } catch (e) {
        if (isStoreUnavailable(e)) {
          unreachable ??= e instanceof Error ? e.message : String(e);
          return;
        }
        counts.failed += 1;
        log.warn('copy-files: a file could not be copied', {
          fileId: meta.fileId,
          error: e instanceof Error ? e.message : String(e),
        });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, cfg.parallel) }, worker));
  if (unreachable !== undefined) {
    log.warn('Copying files between stores stopped: a store is not reachable; the next start copies the rest', { source: source.id, target: target.id, error: unreachable, ...counts });
    return counts;
  }
  log.info('Copying files between stores finished', { source: source.id, target: target.id, ...counts });
  return counts;
};
