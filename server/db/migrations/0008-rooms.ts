/**
 * Rooms: links that let guests without an account add songs to what a player
 * connection plays.
 *
 * - `rooms`: one per link, owned by an account (gone with it), for one player
 *   connection; `valid_until` epoch ms; `fallback_playlist` a stored playlist
 *   name or null.
 * - `room_guests`: who joined; `token_hash` is the SHA-256 of the guest's
 *   token (the token itself is never stored), so deleting the row, or the
 *   room, ends the token. `first_added` orders the guests' turns.
 * - `room_songs`: who added which queue song, by the daemon's song id and the
 *   file it held (a daemon restart reuses ids), so the attribution survives a
 *   restart of the server while the song is queued. `guest_id` is null for
 *   a fallback song or a guest signed out since.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../connect.js';

/** MariaDB: as in 0001 (InnoDB, utf8mb4, exact comparison of ids). */
const sqlTableOptions = sql`engine=InnoDB default character set utf8mb4 collate utf8mb4_bin`;

const ID = 'varchar(254)';

export function rooms(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      let r = db.schema
        .createTable('rooms')
        .addColumn('id', ID, (c) => c.primaryKey())
        .addColumn('account_id', ID, (c) => c.notNull())
        .addColumn('connection', ID, (c) => c.notNull())
        .addColumn('name', ID, (c) => c.notNull())
        .addColumn('created', 'bigint', (c) => c.notNull())
        .addColumn('valid_until', 'bigint', (c) => c.notNull())
        .addColumn('enabled', 'smallint', (c) => c.notNull())
        .addColumn('songs_per_guest', 'integer', (c) => c.notNull())
        .addColumn('skip_votes', 'integer', (c) => c.notNull())
        .addColumn('fallback_playlist', sql`text`)
        .addForeignKeyConstraint('fk_rooms_account', ['account_id'], 'accounts', ['id'], (fk) => fk.onDelete('cascade'));
      if (dialect === 'mysql') r = r.modifyEnd(sqlTableOptions);
      await r.execute();
      await db.schema.createIndex('ix_rooms_account').on('rooms').column('account_id').execute();

      let g = db.schema
        .createTable('room_guests')
        .addColumn('id', ID, (c) => c.primaryKey())
        .addColumn('room_id', ID, (c) => c.notNull())
        .addColumn('name', ID, (c) => c.notNull())
        .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('joined', 'bigint', (c) => c.notNull())
        .addColumn('first_added', 'bigint')
        .addForeignKeyConstraint('fk_room_guests_room', ['room_id'], 'rooms', ['id'], (fk) => fk.onDelete('cascade'));
      if (dialect === 'mysql') g = g.modifyEnd(sqlTableOptions);
      await g.execute();
      await db.schema.createIndex('ix_room_guests_room').on('room_guests').column('room_id').execute();

      let s = db.schema
        .createTable('room_songs')
        .addColumn('room_id', ID, (c) => c.notNull())
        .addColumn('song_id', 'bigint', (c) => c.notNull())
        .addColumn('file', sql`text`, (c) => c.notNull())
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('guest_id', ID)
        .addColumn('name', ID, (c) => c.notNull())
        .addColumn('added', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('pk_room_songs', ['room_id', 'song_id'])
        .addForeignKeyConstraint('fk_room_songs_room', ['room_id'], 'rooms', ['id'], (fk) => fk.onDelete('cascade'));
      if (dialect === 'mysql') s = s.modifyEnd(sqlTableOptions);
      await s.execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('room_songs').execute();
      await db.schema.dropTable('room_guests').execute();
      await db.schema.dropTable('rooms').execute();
    },
  };
}
