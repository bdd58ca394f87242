/**
 * The markers of multipart requests in progress (`pending_uploads`, migration
 * 0002). Plain functions taking `db` first; rows are mapped here and never leave.
 */
import type { Kysely } from 'kysely';
import { randomId } from '../../common/ids.js';
import type { Database } from '../../db/schema.js';

type Db = Kysely<Database>;

/** What one request created: a share, or a file with the store (and, once known, the location) of its binary. */
export interface PendingMarker {
  id: string;
  kind: 'share' | 'file';
  /** the share id, or the file id (`file_meta.file_id`) */
  refId: string;
  store: string;
  location: string;
}

export const insertMarker = async (db: Db, requestId: string, m: Omit<PendingMarker, 'id'>, expires: number): Promise<void> => {
  await db
    .insertInto('pending_uploads')
    .values({ id: randomId(), request_id: requestId, kind: m.kind, ref_id: m.refId, store: m.store, location: m.location, expires })
    .execute();
};

export const renewMarkers = async (db: Db, requestId: string, expires: number): Promise<void> => {
  await db.updateTable('pending_uploads').set({ expires }).where('request_id', '=', requestId).execute();
};

export const setMarkerLocation = async (db: Db, requestId: string, fileId: string, location: string): Promise<void> => {
  await db
    .updateTable('pending_uploads')
    .set({ location })
    .where('request_id', '=', requestId)
    .where('ref_id', '=', fileId)
    .execute();
};

export const deleteMarkersOf = async (db: Db, requestId: string): Promise<void> => {
  await db.deleteFrom('pending_uploads').where('request_id', '=', requestId).execute();
};

export const deleteMarker = async (db: Db, id: string): Promise<void> => {
  await db.deleteFrom('pending_uploads').where('id', '=', id).execute();
};

/** Requests with markers that expired before `now`, at most `limit` of them. */
export const expiredRequests = async (db: Db, now: number, limit: number): Promise<string[]> => {
  const rows = await db
    .selectFrom('pending_uploads')
    .select('request_id')
    .distinct()
    .where('expires', '<', now)
    .limit(limit)
    .execute();
  return rows.map((r) => r.request_id);
};

export const markersOf = async (db: Db, requestId: string): Promise<PendingMarker[]> => {
  const rows = await db.selectFrom('pending_uploads').selectAll().where('request_id', '=', requestId).execute();
  return rows.flatMap((r) =>
    r.kind === 'share' || r.kind === 'file' ? [{ id: r.id, kind: r.kind, refId: r.ref_id, store: r.store, location: r.location }] : [],
  );
};
