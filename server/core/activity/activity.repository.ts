/**
 * The activity log of shares (`share_activity`) and the share's receipt
 * columns (recipients numbered, first complete download, last download mail,
 * the folded summary). Plain functions taking `db` (or a transaction) first;
 * rows are mapped here and never leave.
 */
import { sql, type Kysely } from 'kysely';
import { randomId } from '../../common/ids.js';
import { toBool, type Database } from '../../db/schema.js';

type Db = Kysely<Database>;

export const activityKinds = ['view', 'download', 'zip', 'upload'] as const;
export type ActivityKind = (typeof activityKinds)[number];

export interface ActivityEntry {
  at: number;
  kind: ActivityKind;
  recipient: number | null;
  fileId: string | null;
  bytes: number;
  complete: boolean;
  client: string;
  address: string;
  sender: string | null;
}

export interface ActivityTotals {
  recipients: number;
  /** complete downloads (files and ZIPs), folded ones included */
  downloads: number;
  lastAt: number | null;
  firstDownloadAt: number | null;
  /** entries folded out of the log */
  folded: number;
  foldedUntil: number | null;
}

const num = (v: unknown): number => Number(v ?? 0);
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/**
 * Adds one entry, then folds the oldest entries beyond `keep` into the
 * share's summary columns, in one transaction (the share row is updated
 * first, which serialises writers of one share).
 */
export const insertActivity = async (db: Db, shareId: string, e: ActivityEntry, keep: number): Promise<void> => {
  await db.transaction().execute(async (tx) => {
    const touched = await tx
      .updateTable('shares')
      .set((eb) => ({ activity_folded: eb.ref('activity_folded') }))
      .where('id', '=', shareId)
      .executeTakeFirst();
    if (Number(touched.numUpdatedRows) === 0) return;
    await tx
      .insertInto('share_activity')
      .values({
        id: randomId(),
        share_id: shareId,
        at: e.at,
        kind: e.kind,
        recipient: e.recipient,
        file_id: e.fileId,
        bytes: e.bytes,
        complete: e.complete ? 1 : 0,
        client: e.client.slice(0, 120),
        address: e.address.slice(0, 64),
        sender: e.sender,
      })
      .execute();
    const { c } = await tx.selectFrom('share_activity').select((eb) => eb.fn.countAll<number>().as('c')).where('share_id', '=', shareId).executeTakeFirstOrThrow();
    const over = num(c) - keep;
    if (over <= 0) return;
    const oldest = await tx
      .selectFrom('share_activity')
      .select(['id', 'at', 'kind', 'complete'])
      .where('share_id', '=', shareId)
      .orderBy('at')
      .orderBy('id')
      .limit(over)
      .execute();
    const downloads = oldest.filter((r) => r.kind !== 'view' && r.kind !== 'upload' && toBool(r.complete)).length;
    const until = Math.max(...oldest.map((r) => num(r.at)));
    await tx.deleteFrom('share_activity').where('id', 'in', oldest.map((r) => r.id)).execute();
    await tx
      .updateTable('shares')
      .set({
        activity_folded: sql`activity_folded + ${oldest.length}`,
        activity_folded_downloads: sql`activity_folded_downloads + ${downloads}`,
        activity_folded_until: sql`case when activity_folded_until is null or activity_folded_until < ${until} then ${until} else activity_folded_until end`,
      })
      .where('id', '=', shareId)
      .execute();
  });
};

/** The next recipient number of a share (1, 2, …); null when the share is gone. */
export const nextRecipient = async (db: Db, shareId: string): Promise<number | null> =>
  db.transaction().execute(async (tx) => {
    const res = await tx
      .updateTable('shares')
      .set({ activity_recipients: sql`activity_recipients + 1` })
      .where('id', '=', shareId)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) return null;
    const row = await tx.selectFrom('shares').select('activity_recipients').where('id', '=', shareId).executeTakeFirstOrThrow();
    return num(row.activity_recipients);
  });

/** Marks the share downloaded; true only for the call that did it first. */
export const markDownloaded = async (db: Db, shareId: string, at: number): Promise<boolean> => {
  const res = await db.updateTable('shares').set({ activity_downloaded: at }).where('id', '=', shareId).where('activity_downloaded', 'is', null).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
};

/** Claims the hourly download mail of a share: true when no mail went out since `since` (and records `at`). */
export const claimDownloadMail = async (db: Db, shareId: string, since: number, at: number): Promise<boolean> => {
  const res = await db
    .updateTable('shares')
    .set({ activity_mailed: at })
    .where('id', '=', shareId)
    .where('notify_on_download', '=', 1)
    .where((eb) => eb.or([eb('activity_mailed', 'is', null), eb('activity_mailed', '<=', since)]))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
};

export const setNotifyOnDownload = async (db: Db, shareId: string, on: boolean): Promise<void> => {
  await db.updateTable('shares').set({ notify_on_download: on ? 1 : 0 }).where('id', '=', shareId).execute();
};

export const notifyOnDownloadOf = async (db: Db, shareId: string): Promise<boolean> => {
  const row = await db.selectFrom('shares').select('notify_on_download').where('id', '=', shareId).executeTakeFirst();
  return row !== undefined && toBool(row.notify_on_download);
};

/** One page of a share's log, newest first. */
export const findActivity = async (db: Db, shareId: string, page: number, pageSize: number): Promise<ActivityEntry[]> => {
  const rows = await db
    .selectFrom('share_activity')
    .selectAll()
    .where('share_id', '=', shareId)
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  return rows.map((r) => ({
    at: num(r.at),
    kind: r.kind as ActivityKind,
    recipient: numOrNull(r.recipient),
    fileId: r.file_id,
    bytes: num(r.bytes),
    complete: toBool(r.complete),
    client: r.client,
    address: r.address,
    sender: r.sender,
  }));
};

/** The receipt numbers of a share; undefined when it is gone. */
export const findTotals = async (db: Db, shareId: string): Promise<ActivityTotals | undefined> => {
  const share = await db
    .selectFrom('shares')
    .select(['activity_recipients', 'activity_downloaded', 'activity_folded', 'activity_folded_downloads', 'activity_folded_until'])
    .where('id', '=', shareId)
    .executeTakeFirst();
  if (!share) return undefined;
  const agg = await db
    .selectFrom('share_activity')
    .select((eb) => [
      eb.fn.max<number>('at').as('last'),
      eb.fn.sum<number>(sql<number>`case when kind in ('download', 'zip') and complete = 1 then 1 else 0 end`).as('downloads'),
    ])
    .where('share_id', '=', shareId)
    .executeTakeFirstOrThrow();
  const foldedUntil = numOrNull(share.activity_folded_until);
  const last = numOrNull(agg.last) ?? foldedUntil;
  return {
    recipients: num(share.activity_recipients),
    downloads: num(agg.downloads) + num(share.activity_folded_downloads),
    lastAt: last,
    firstDownloadAt: numOrNull(share.activity_downloaded),
    folded: num(share.activity_folded),
    foldedUntil,
  };
};
