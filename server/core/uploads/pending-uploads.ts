import type { Kysely } from 'kysely';
import type { Clock } from '../../common/clock.js';
import { randomId } from '../../common/ids.js';
import type { Logger } from '../../common/log.js';
import type { Database } from '../../db/schema.js';
import type { StoreRegistry } from '../stores/binary-store.js';

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
        db
          .updateTable('pending_uploads')
          .set({ expires: clock.now() + PENDING_TTL_MS })
          .where('request_id', '=', requestId)
          .execute()
          .catch((e: unknown) => log.warn('Could not renew upload markers', { error: String(e) }));
      return {
        async add(kind, refId, binary) {
          await db
            .insertInto('pending_uploads')
            .values({
              id: randomId(),
              request_id: requestId,
              kind,
              ref_id: refId,
              store: binary?.store ?? '',
              location: binary?.location ?? '',
              expires: clock.now() + PENDING_TTL_MS,
            })
            .execute();
          heartbeat ??= setInterval(() => void renew(), PENDING_TTL_MS / 3);
          heartbeat.unref();
        },
        async setLocation(fileId, location) {
          await db
            .updateTable('pending_uploads')
            .set({ location })
            .where('request_id', '=', requestId)
            .where('ref_id', '=', fileId)
            .execute();
        },
        async finish() {
          if (heartbeat) clearInterval(heartbeat);
          heartbeat = undefined;
          await db.deleteFrom('pending_uploads').where('request_id', '=', requestId).execute();
        },
      };
    },

    async recoverAbandoned() {
      const removed = { shares: 0, files: 0 };
      const requests = await db
        .selectFrom('pending_uploads')
        .select('request_id')
        .distinct()
        .where('expires', '<', clock.now())
        .limit(500)
        .execute();
      for (const { request_id } of requests) {
        const markers = await db.selectFrom('pending_uploads').selectAll().where('request_id', '=', request_id).execute();
        // the shares first: what nobody finished disappears even while a store is not reachable
        for (const m of markers.filter((x) => x.kind === 'share')) {
          const res = await db.deleteFrom('shares').where('id', '=', m.ref_id).executeTakeFirst();
          removed.shares += Number(res.numDeletedRows);
          await db.deleteFrom('pending_uploads').where('id', '=', m.id).execute();
        }
        for (const m of markers.filter((x) => x.kind === 'file')) {
          const meta = await db.selectFrom('file_meta').select(['store', 'location']).where('file_id', '=', m.ref_id).executeTakeFirst();
          const store = deps.stores.get(meta?.store ?? m.store);
          const location = meta?.location ?? m.location;
          try {
            // a file-system binary without a known location was never written to
            if (store && (location !== '' || store.type !== 'file-system')) await store.delete({ fileId: m.ref_id, location });
          } catch (e) {
            // the marker stays: the next pass tries again
            log.warn('Could not remove interrupted uploads yet', { fileId: m.ref_id, error: String(e) });
            continue;
          }
          await db.deleteFrom('file_meta').where('file_id', '=', m.ref_id).execute();
          await db.deleteFrom('pending_uploads').where('id', '=', m.id).execute();
          removed.files++;
        }
      }
      if (removed.shares + removed.files > 0) log.info('Removed what interrupted uploads left behind', removed);
      return removed;
    },
  };
};
