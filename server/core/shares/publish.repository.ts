/**
 * The publish rows of shares: reads, publishing, unpublishing and the view
 * count. Plain functions taking `db` (or a transaction) first; rows are mapped
 * here and never leave.
 */
import { sql, type Kysely } from 'kysely';
import { randomId } from '../../common/ids.js';
import { toBool, type Database } from '../../db/schema.js';
import type { SharePublish } from './share.types.js';

type Db = Kysely<Database>;

export interface PublishRecord {
  id: string;
  shareId: string;
  enabled: boolean;
  views: number;
  lastAccess: number | null;
  publishDate: number;
  publishUntil: number;
}

const num = (v: unknown): number => Number(v ?? 0);

type PublishRow = Database['publish_shares'];

const toPublish = (row: PublishRow): PublishRecord => ({
  id: row.id,
  shareId: row.share_id,
  enabled: toBool(row.enabled),
  views: num(row.views),
  lastAccess: row.last_access === null ? null : num(row.last_access),
  publishDate: num(row.publish_date),
  publishUntil: num(row.publish_until),
});

export const findPublishOfShare = async (db: Db, shareId: string): Promise<PublishRecord | undefined> => {
  const row = await db.selectFrom('publish_shares').selectAll().where('share_id', '=', shareId).executeTakeFirst();
  return row && toPublish(row);
};

export const findPublishById = async (db: Db, publishId: string): Promise<PublishRecord | undefined> => {
  const row = await db.selectFrom('publish_shares').selectAll().where('id', '=', publishId).executeTakeFirst();
  return row && toPublish(row);
};

/** The API view of a publish row; expired once `publishUntil` is reached. */
export const toSharePublish = (p: PublishRecord, now: number): SharePublish => ({
  id: p.id,
  enabled: p.enabled,
  views: p.views,
  publishDate: p.publishDate,
  publishUntil: p.publishUntil,
  expired: p.publishUntil <= now,
  lastAccess: p.lastAccess,
});

/** The first publication of a share: a new random publish id, no views yet. */
export const insertPublish = async (db: Db, shareId: string, now: number, until: number): Promise<void> => {
  await db
    .insertInto('publish_shares')
    .values({ id: randomId(), share_id: shareId, enabled: 1, views: 0, last_access: null, publish_date: now, publish_until: until, created: now })
    .execute();
};

/** Publishes the share's row again from `now` until `until` under publish id `id`; views are kept. */
export const republish = async (db: Db, shareId: string, id: string, now: number, until: number): Promise<void> => {
  await db
    .updateTable('publish_shares')
    .set({ id, enabled: 1, publish_date: now, publish_until: until })
    .where('share_id', '=', shareId)
    .execute();
};

export const setPublishUntil = async (db: Db, publishId: string, until: number): Promise<void> => {
  await db.updateTable('publish_shares').set({ publish_until: until }).where('id', '=', publishId).execute();
};

/** Unpublishes; the publish id and views stay on the row. */
export const disablePublish = async (db: Db, shareId: string): Promise<void> => {
  await db.updateTable('publish_shares').set({ enabled: 0 }).where('share_id', '=', shareId).execute();
};

/**
 * Counts one view, in one conditional update, unless the share was
 * unpublished, expired or its views used up meanwhile; false when none was
 * left. The condition is checked by the database on the row it updates, so
 * parallel requests can never count more than the share's max views.
 */
export const countView = async (db: Db, p: PublishRecord, now: number): Promise<boolean> => {
  const res = await db
    .updateTable('publish_shares')
    .set({ views: sql`views + 1`, last_access: now })
    .where('id', '=', p.id)
    .where('publish_date', '=', p.publishDate)
    .where('enabled', '=', 1)
    .where('publish_until', '>', now)
    .where('views', '<', (eb) => eb.selectFrom('shares').select('shares.max_views').whereRef('shares.id', '=', 'publish_shares.share_id'))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
};
