import type { Kysely } from 'kysely';
import type { Clock } from '../../common/clock.js';
import { randomId } from '../../common/ids.js';
import type { Logger } from '../../common/log.js';
import type { Database } from '../../db/schema.js';
import { deleteShareRow } from '../shares/share.repository.js';
import type { StoreRegistry } from '../stores/binary-store.js';
import { deleteFileMeta, findStoredAt } from './file.repository.js';
import {
  deleteMarker,
  deleteMarkersOf,
  expiredRequests,
  insertMarker,
  markersOf,
  renewMarkers,
  setMarkerLocation,
} from './pending-upload.repository.js';

/** How long the markers of a request live without renewal (a killed server renews nothing). */
export const PENDING_TTL_MS = 60_000;

/** What one multipart request has created so far. */
export interface PendingRequest {
  /** Records a share or file before it can be left behind (files: before their binary exists). */
  add(kind: 'share' | 'file', refId: string, binary?: { store: string; location: string }): Promise<void>;
  /** The location of a file's binary, once the store has created it. */
  setLocation(fileId: string, location: string): Promise<void>;
  /** The request has answered (what failed is already removed): forgets its markers. */
  finish(): Promise<void>;
}

export interface PendingUploads {
  /** A tracker for one request; nothing is written until something is added. */
  begin(): PendingRequest;
  /**
   * Removes what requests of killed servers left behind: shares and files
   * whose markers expired, the shares first. A file whose store is not
   * reachable keeps its marker for the next pass. Safe on several servers at
   * once (every delete is idempotent). Returns how many shares and files it removed.
   */
  recoverAbandoned(): Promise<{ shares: number; files: number }>;
}

export const createPendingUploads = (deps: {
  db: Kysely<Database>;
  stores: StoreRegistry;
  clock: Clock;
  log: Logger;
}): PendingUploads => {
  const { db, clock, log } = deps;
  return {
    begin() {
      const requestId = randomId();
      let heartbeat: NodeJS.Timeout | undefined;
      const renew = () =>
        renewMarkers(db, requestId, clock.now() + PENDING_TTL_MS).catch((e: unknown) => log.warn('Could not renew upload markers', { error: String(e) }));
      return {
        async add(kind, refId, binary) {
          await insertMarker(db, requestId, { kind, refId, store: binary?.store ?? '', location: binary?.location ?? '' }, clock.now() + PENDING_TTL_MS);
          heartbeat ??= setInterval(() => void renew(), PENDING_TTL_MS / 3);
          heartbeat.unref();
        },
        async setLocation(fileId, location) {
          await setMarkerLocation(db, requestId, fileId, location);
        },
        async finish() {
          if (heartbeat) clearInterval(heartbeat);
          heartbeat = undefined;
          await deleteMarkersOf(db, requestId);
        },
      };
    },

    async recoverAbandoned() {
      const removed = { shares: 0, files: 0 };
      for (const requestId of await expiredRequests(db, clock.now(), 500)) {
        const markers = await markersOf(db, requestId);
        // the shares first: what nobody finished disappears even while a store is not reachable
        for (const m of markers.filter((x) => x.kind === 'share')) {
          removed.shares += await deleteShareRow(db, m.refId);
          await deleteMarker(db, m.id);
        }
        for (const m of markers.filter((x) => x.kind === 'file')) {
          const meta = await findStoredAt(db, m.refId);
          const store = deps.stores.get(meta?.store ?? m.store);
          const location = meta?.location ?? m.location;
          try {
            // a file-system binary without a known location was never written to
            if (store && (location !== '' || store.type !== 'file-system')) await store.delete({ fileId: m.refId, location });
          } catch (e) {
            // the marker stays: the next pass tries again
            log.warn('Could not remove interrupted uploads yet', { fileId: m.refId, error: String(e) });
            continue;
          }
          await deleteFileMeta(db, m.refId);
          await deleteMarker(db, m.id);
          removed.files++;
        }
      }
      if (removed.shares + removed.files > 0) log.info('Removed what interrupted uploads left behind', removed);
      return removed;
    },
  };
};
