/** The share search: one page of the shares an accessor may see, mapped to the API's list items. */
import type { Kysely } from 'kysely';
import { toBool, type Database } from '../../db/schema.js';
import { containsIgnoreCase } from '../../db/sql-helpers.js';
import type { Accessor } from './accessor.js';
import { accessibleShares, isAutoNamed } from './share.repository.js';
import type { ShareListItem } from './share.types.js';

export interface SearchQuery {
  /** case-insensitive substring of name, id, alias name or description; '' matches all */
  q: string;
  /** 1-based */
  page: number;
  /** already capped at `max-page-size` */
  pageSize: number;
}

/**
 * Signed-in users and guests: the shares the accessor may see (own shares and
 * shares uploaded through aliases the user is a member of), newest first, one
 * page of them. An empty page when nothing matches.
 */
export const searchShares = async (db: Kysely<Database>, a: Accessor, query: SearchQuery, now: number): Promise<ShareListItem[]> => {
  let qb = db
    .selectFrom('shares')
    .leftJoin('aliases', 'aliases.id', 'shares.alias_id')
    .leftJoin('publish_shares', 'publish_shares.share_id', 'shares.id')
    .select([
      'shares.id as id',
      'shares.name as name',
      'aliases.id as alias_id',
      'aliases.name as alias_name',
      'shares.validity as validity',
      'shares.max_views as max_views',
      'shares.password as password',
      'shares.created as created',
      'publish_shares.enabled as enabled',
      'publish_shares.publish_until as publish_until',
      'publish_shares.views as views',
      'shares.activity_downloaded as downloaded',
      'shares.sender as sender',
      'shares.auto_name as auto_name',
    ])
    .select((eb) => {
      const files = () =>
        eb.selectFrom('share_files').innerJoin('file_meta', 'file_meta.file_id', 'share_files.file_id').whereRef('share_files.share_id', '=', 'shares.id');
      // a complete file's type is lower case (its detection writes it so)
      const countOf = (mimetypes: string) => files().select(eb.fn.countAll<number>().as('c')).where('file_meta.mimetype', 'like', mimetypes);
      return [
        eb.selectFrom('share_files').select(eb.fn.countAll<number>().as('c')).whereRef('share_files.share_id', '=', 'shares.id').as('file_count'),
        files()
          .select((sub) => sub.fn.sum<number>('file_meta.length').as('s'))
          .as('file_size'),
        countOf('image/%').as('image_count'),
        countOf('video/%').as('video_count'),
      ];
    })
    .where('shares.id', 'in', accessibleShares(db, a));
  if (query.q) {
    const q = query.q;
    qb = qb.where((eb) =>
      eb.or([
        containsIgnoreCase('shares.name', q),
        containsIgnoreCase('shares.id', q),
        containsIgnoreCase('aliases.name', q),
        containsIgnoreCase('shares.description', q),
      ]),
    );
  }
  const rows = await qb
    .orderBy('shares.created', 'desc')
    .orderBy('shares.id')
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize)
    .execute();
  return rows.map((r) => {
    const enabled = r.enabled !== null && toBool(r.enabled);
    const files = Number(r.file_count ?? 0);
    return {
      id: r.id,
      name: r.name,
      aliasName: r.alias_name ?? null,
      aliasInfo: r.alias_id && r.alias_name !== null ? { id: r.alias_id, name: r.alias_name } : null,
      validity: Number(r.validity),
      maxViews: Number(r.max_views),
      password: r.password !== null,
      created: Number(r.created),
      files,
      size: Number(r.file_size ?? 0),
      published: enabled ? Number(r.publish_until) > now : null,
      views: Number(r.views ?? 0),
      publishUntil: enabled ? Number(r.publish_until) : null,
      downloaded: r.downloaded === null ? null : Number(r.downloaded),
      autoNamed: isAutoNamed(r.name, r.auto_name),
      sender: r.sender,
      filesKind: files === 0 ? null : Number(r.image_count) === files ? 'photo' : Number(r.video_count) === files ? 'video' : 'file',
    };
  });
};
