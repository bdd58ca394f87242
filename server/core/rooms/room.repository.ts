/**
 * Room rows, their guests and who added which queue song. Plain functions
 * taking `db` first.
 */
import type { Kysely, Selectable } from 'kysely';
import { fromBool, toBool, type Database, type RoomGuestTable, type RoomSongTable, type RoomTable } from '../../db/schema.js';
import type { RoomGuestRecord, RoomRecord, RoomSongRecord } from './room.types.js';

type Db = Kysely<Database>;

const toRoom = (r: Selectable<RoomTable>): RoomRecord => ({
  id: r.id,
  ownerId: r.account_id,
  connection: r.connection,
  name: r.name,
  created: Number(r.created),
  validUntil: Number(r.valid_until),
  enabled: toBool(r.enabled),
  songsPerGuest: Number(r.songs_per_guest),
  skipVotes: Number(r.skip_votes),
  fallbackPlaylist: r.fallback_playlist,
});

const toGuest = (r: Selectable<RoomGuestTable>): RoomGuestRecord => ({
  id: r.id,
  roomId: r.room_id,
  name: r.name,
  joined: Number(r.joined),
  firstAdded: r.first_added === null ? null : Number(r.first_added),
});

const toSong = (r: Selectable<RoomSongTable>): RoomSongRecord => ({
  roomId: r.room_id,
  songId: Number(r.song_id),
  file: r.file,
  kind: r.kind === 'fallback' ? 'fallback' : 'guest',
  guestId: r.guest_id,
  name: r.name,
  added: Number(r.added),
});

export const insertRoom = async (db: Db, r: RoomRecord): Promise<void> => {
  await db
    .insertInto('rooms')
    .values({
      id: r.id,
      account_id: r.ownerId,
      connection: r.connection,
      name: r.name,
      created: r.created,
      valid_until: r.validUntil,
      enabled: fromBool(r.enabled),
      songs_per_guest: r.songsPerGuest,
      skip_votes: r.skipVotes,
      fallback_playlist: r.fallbackPlaylist,
    })
    .execute();
};

export const updateRoom = async (db: Db, r: RoomRecord): Promise<void> => {
  await db
    .updateTable('rooms')
    .set({
      connection: r.connection,
      name: r.name,
      valid_until: r.validUntil,
      enabled: fromBool(r.enabled),
      songs_per_guest: r.songsPerGuest,
      skip_votes: r.skipVotes,
      fallback_playlist: r.fallbackPlaylist,
    })
    .where('id', '=', r.id)
    .execute();
};

export const findRoom = async (db: Db, id: string): Promise<RoomRecord | undefined> => {
  const row = await db.selectFrom('rooms').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toRoom(row);
};

export const roomsOf = async (db: Db, accountId: string): Promise<RoomRecord[]> =>
  (await db.selectFrom('rooms').selectAll().where('account_id', '=', accountId).orderBy('created', 'desc').execute()).map(toRoom);

/** Enabled rooms not past `now`, of every owner. */
export const openRooms = async (db: Db, now: number): Promise<RoomRecord[]> =>
  (await db.selectFrom('rooms').selectAll().where('enabled', '=', 1).where('valid_until', '>', now).execute()).map(toRoom);

/** Deletes the room with its guests and songs (their tokens end with the rows). */
export const deleteRoom = async (db: Db, id: string): Promise<void> => {
  await db.transaction().execute(async (tx) => {
    await tx.deleteFrom('room_songs').where('room_id', '=', id).execute();
    await tx.deleteFrom('room_guests').where('room_id', '=', id).execute();
    await tx.deleteFrom('rooms').where('id', '=', id).execute();
  });
};

export const insertGuest = async (db: Db, g: RoomGuestRecord, tokenHash: string): Promise<void> => {
  await db.insertInto('room_guests').values({ id: g.id, room_id: g.roomId, name: g.name, token_hash: tokenHash, joined: g.joined, first_added: g.firstAdded }).execute();
};

export const guestByToken = async (db: Db, tokenHash: string): Promise<RoomGuestRecord | undefined> => {
  const row = await db.selectFrom('room_guests').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  return row && toGuest(row);
};

export const guestsOf = async (db: Db, roomId: string): Promise<RoomGuestRecord[]> =>
  (await db.selectFrom('room_guests').selectAll().where('room_id', '=', roomId).orderBy('joined').execute()).map(toGuest);

export const countGuests = async (db: Db, roomId: string): Promise<number> => {
  const r = await db.selectFrom('room_guests').select((eb) => eb.fn.countAll<number | string>().as('n')).where('room_id', '=', roomId).executeTakeFirst();
  return Number(r?.n ?? 0);
};

/** Sets the guest's first add once. */
export const markFirstAdded = async (db: Db, guestId: string, at: number): Promise<void> => {
  await db.updateTable('room_guests').set({ first_added: at }).where('id', '=', guestId).where('first_added', 'is', null).execute();
};

/** Signs one guest out: the token ends; their queued songs stay, attributed to the name they gave. */
export const deleteGuest = async (db: Db, roomId: string, guestId: string): Promise<boolean> => {
  const r = await db.deleteFrom('room_guests').where('room_id', '=', roomId).where('id', '=', guestId).executeTakeFirst();
  if (Number(r.numDeletedRows) === 0) return false;
  await db.updateTable('room_songs').set({ guest_id: null }).where('room_id', '=', roomId).where('guest_id', '=', guestId).execute();
  return true;
};

export const insertSong = async (db: Db, s: RoomSongRecord): Promise<void> => {
  await db.deleteFrom('room_songs').where('room_id', '=', s.roomId).where('song_id', '=', s.songId).execute();
  await db.insertInto('room_songs').values({ room_id: s.roomId, song_id: s.songId, file: s.file, kind: s.kind, guest_id: s.guestId, name: s.name, added: s.added }).execute();
};

/** The songs rooms of these ids added, oldest first. */
export const songsOfRooms = async (db: Db, roomIds: readonly string[]): Promise<RoomSongRecord[]> => {
  if (roomIds.length === 0) return [];
  return (await db.selectFrom('room_songs').selectAll().where('room_id', 'in', roomIds).orderBy('added').orderBy('song_id').execute()).map(toSong);
};

export const deleteSongs = async (db: Db, roomId: string, songIds: readonly number[]): Promise<void> => {
  if (songIds.length === 0) return;
  await db.deleteFrom('room_songs').where('room_id', '=', roomId).where('song_id', 'in', songIds).execute();
};
