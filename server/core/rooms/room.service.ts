/**
 * Rooms: an owner's link that lets guests without an account add songs of the
 * library to what one player connection plays (CONTRACT §4.1). Owner
 * operations take the caller's account; guest operations take the guest
 * resolved from a room token (`guest`). Knows nothing of HTTP.
 */
import { createHash, randomBytes } from 'node:crypto';
import { AppError, badRequest, forbidden, notFound, unauthenticated } from '../../common/errors.js';
import type { Clock } from '../../common/clock.js';
import type { Logger } from '../../common/log.js';
import { randomId } from '../../common/ids.js';
import type { BasicResult } from '../../common/result.js';
import type { Db } from '../../db/connect.js';
import type { PlayerGateway } from '../../player/gateway.service.js';
import type { ServerEventBus } from '../events/events.js';
import { addSong, command, describeSong, librarySong, searchLibrary, type Snapshot } from './room-daemon.js';
import { createRoomLive, type Attribution, type RoomSubscriber } from './room-live.js';
import { cleanName, ROOM_NAME_MAX } from './guest-name.js';
import * as repo from './room.repository.js';
import type { QueueEntry, RoomGuestRecord, RoomInput, RoomRecord, RoomStateView, RoomView } from './room.types.js';

export interface RoomLimits {
  joinsPerAddressPerHour: number;
  guestsPerRoom: number;
  addsPerGuestPerMinute: number;
}

export interface RoomServiceDeps {
  db: Db['db'];
  gateway: PlayerGateway;
  events: ServerEventBus;
  clock: Clock;
  log: Logger;
  limits: RoomLimits;
  /** `backend.share.max-validity` */
  maxValidity: number;
  random?: () => number;
}

export interface Owner {
  accountId: string;
  admin: boolean;
}

/** A guest as a token names them. */
export interface RoomGuest {
  room: RoomRecord;
  guest: RoomGuestRecord;
}

const DAY = 24 * 60 * 60 * 1000;
const SEEN_WINDOW = 15 * 60 * 1000;
const QUEUE_SHOWN = 100;

const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** Times of recent events per key, for the join and add limits; bounded in keys. */
const recentTimes = (windowMs: number, clock: Clock, maxKeys = 10_000) => {
  const times = new Map<string, number[]>();
  const recent = (key: string): number[] => {
    const since = clock.now() - windowMs;
    const list = (times.get(key) ?? []).filter((t) => t > since);
    if (list.length === 0) times.delete(key);
    else times.set(key, list);
    return list;
  };
  return {
    /** Counts one event unless `limit` are within the window; the seconds to wait when refused. */
    take(key: string, limit: number): number {
      const list = recent(key);
      if (list.length >= limit) return Math.max(1, Math.ceil((list[0]! + windowMs - clock.now()) / 1000));
      if (times.size >= maxKeys && !times.has(key)) times.delete(times.keys().next().value!);
      list.push(clock.now());
      times.set(key, list);
      return 0;
    },
  };
};

export const createRoomService = (deps: RoomServiceDeps) => {
  const { db, gateway, clock, log, limits } = deps;
  const live = createRoomLive({ db, gateway, clock, log, ...(deps.random ? { random: deps.random } : {}) });
  const joins = recentTimes(60 * 60 * 1000, clock);
  const adds = recentTimes(60 * 1000, clock);
  const seen = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;

  const isOpen = (r: RoomRecord): boolean => r.enabled && r.validUntil > clock.now();

  /** The room of an owner (or any room for an admin); 404 for anyone else. */
  const ownRoom = async (owner: Owner, id: string): Promise<RoomRecord> => {
    const r = await repo.findRoom(db, id);
    if (!r || (r.ownerId !== owner.accountId && !owner.admin)) throw notFound('The room');
    return r;
  };

  /** An open room for its guests; 404 once deleted, disabled or past its validity. */
  const openRoom = async (id: string): Promise<RoomRecord> => {
    const r = await repo.findRoom(db, id);
    if (!r || !isOpen(r) || !gateway.has(r.connection)) throw notFound('The room');
    return r;
  };

  const waitingCounts = (snap: Snapshot, attribution: Attribution, roomId: string): Map<string, number> => {
    const counts = new Map<string, number>();
    const from = snap.status.song ?? 0;
    for (const s of snap.songs.slice(from)) {
      const a = attribution.get(s.id);
      if (a?.roomId === roomId && a.kind === 'guest' && a.guestId) counts.set(a.guestId, (counts.get(a.guestId) ?? 0) + 1);
    }
    return counts;
  };

  const view = async (r: RoomRecord): Promise<RoomView> => {
    const guests = await repo.guestsOf(db, r.id);
    let counts = new Map<string, number>();
    if (isOpen(r) && gateway.has(r.connection)) {
      try {
        const { snapshot, attribution } = await live.snapshot(r.connection);
        counts = waitingCounts(snapshot, attribution, r.id);
      } catch (e) {
        log.debug('Room view without the queue', { error: String(e) });
      }
    }
    return {
      id: r.id,
      name: r.name,
      connection: r.connection,
      created: r.created,
      validUntil: r.validUntil,
      enabled: r.enabled,
      songsPerGuest: r.songsPerGuest,
      skipVotes: r.skipVotes,
      fallbackPlaylist: r.fallbackPlaylist,
      guests: guests.map((g) => ({ id: g.id, name: g.name, joined: g.joined, queued: counts.get(g.id) ?? 0 })),
    };
  };

  /** The record `input` describes, or a business failure (validity above the maximum). */
  const fromInput = (input: RoomInput, base: { id: string; ownerId: string; created: number }): RoomRecord | BasicResult => {
    const connection = input.connection ?? 'default';
    if (!gateway.has(connection)) throw badRequest('connection', `There is no player connection '${connection}'.`);
    const name = cleanName(input.name, ROOM_NAME_MAX);
    if (!name) throw badRequest('name', 'A room needs a name.');
    const validity = input.validity ?? DAY;
    if (validity > deps.maxValidity) return { success: false, message: 'The validity is above the maximum allowed.', code: 'room.validity-exceeded' };
    const fallback = input.fallbackPlaylist ?? null;
    if (fallback !== null && (fallback.trim() === '' || fallback.includes('://') || /[\n\r\0]/.test(fallback))) throw badRequest('fallbackPlaylist', 'The fallback playlist must be the name of a stored playlist.');
    return {
      ...base,
      connection,
      name,
      validUntil: clock.now() + validity,
      enabled: input.enabled ?? true,
      songsPerGuest: input.songsPerGuest ?? 3,
      skipVotes: input.skipVotes ?? 0,
      fallbackPlaylist: fallback,
    };
  };

  /** Guests seen in the last 15 minutes (a live page counts as seen). */
  const seenGuests = async (roomId: string): Promise<number> => {
    const since = clock.now() - SEEN_WINDOW;
    for (const s of live.subscribersOf(roomId)) seen.set(s.guestId, clock.now());
    return (await repo.guestsOf(db, roomId)).filter((g) => (seen.get(g.id) ?? 0) > since).length;
  };

  const needed = async (r: RoomRecord): Promise<number> => (r.skipVotes > 0 ? r.skipVotes : Math.max(2, Math.floor((await seenGuests(r.id)) / 2) + 1));

  const entry = (s: Snapshot['songs'][number], attribution: Attribution, ownerName: string | null): QueueEntry => {
    const a = attribution.get(s.id);
    return {
      songId: s.id,
      ...describeSong(s.song),
      addedBy: a ? { kind: a.kind, name: a.name } : { kind: 'owner', name: ownerName },
    };
  };

  const stateFor = async (g: RoomGuest, snap: Snapshot, attribution: Attribution): Promise<RoomStateView> => {
    const cur = snap.status.song === null ? undefined : snap.songs[snap.status.song];
    const current = cur && snap.status.state !== 'stop' ? entry(cur, attribution, null) : null;
    const from = snap.status.song === null ? 0 : snap.status.song + 1;
    const vote = live.votes(g.room.connection).get(g.room.id);
    return {
      room: { id: g.room.id, name: g.room.name },
      state: snap.status.state,
      elapsed: snap.status.elapsed,
      duration: snap.status.duration,
      current,
      queue: snap.songs.slice(from, from + QUEUE_SHOWN).map((s) => entry(s, attribution, null)),
      you: { id: g.guest.id, name: g.guest.name, queued: waitingCounts(snap, attribution, g.room.id).get(g.guest.id) ?? 0, limit: g.room.songsPerGuest },
      skip: { votes: vote && vote.songId === snap.status.songid ? vote.voters.size : 0, needed: await needed(g.room) },
    };
  };

  return {
    /** Any user with player access: creates a room of theirs; `id` of the new room. */
    async create(owner: Owner, input: RoomInput): Promise<BasicResult & { id: string }> {
      const r = fromInput(input, { id: randomId(), ownerId: owner.accountId, created: clock.now() });
      if ('success' in r) return { ...r, id: '' };
      await repo.insertRoom(db, r);
      void live.watch(r.connection);
      return { success: true, message: 'The room was created.', code: 'room.created', id: r.id };
    },

    /** The caller's own rooms, newest first. */
    async list(owner: Owner): Promise<RoomView[]> {
      return Promise.all((await repo.roomsOf(db, owner.accountId)).map(view));
    },

    /** The owner's (or, for an admin, any) room; 404 otherwise. */
    async get(owner: Owner, id: string): Promise<RoomView> {
      return view(await ownRoom(owner, id));
    },

    /** Changes a room (same body as creation; the validity counts from now); 404 for others. */
    async update(owner: Owner, id: string, input: RoomInput): Promise<BasicResult & { id: string }> {
      const old = await ownRoom(owner, id);
      const r = fromInput(input, { id, ownerId: old.ownerId, created: old.created });
      if ('success' in r) return { ...r, id: '' };
      await repo.updateRoom(db, r);
      if (!isOpen(r) || r.connection !== old.connection) live.end(id, 'The room is closed.');
      await live.sweep();
      return { success: true, message: 'The room was changed.', code: 'room.modified', id };
    },

    /** Deletes a room: every guest token ends at once and live pages close. 404 for others. */
    async remove(owner: Owner, id: string): Promise<BasicResult> {
      await ownRoom(owner, id);
      await repo.deleteRoom(db, id);
      live.end(id, 'The room is closed.');
      await live.sweep();
      return { success: true, message: 'The room was deleted.', code: 'room.deleted' };
    },

    /** Signs one guest out (their token ends); 404 when the room is not the caller's or the guest is not in it. */
    async signOut(owner: Owner, id: string, guestId: string): Promise<BasicResult> {
      await ownRoom(owner, id);
      if (!(await repo.deleteGuest(db, id, guestId))) throw notFound('The guest');
      live.end(id, 'You were signed out of the room.', guestId);
      return { success: true, message: 'The guest was signed out.', code: 'room.guest-signed-out' };
    },

    /** Who added the queue songs rooms know of on a connection (for the owner's player page). */
    async addedBy(connection: string): Promise<Array<{ songId: string; addedBy: QueueEntry['addedBy'] }>> {
      if (!gateway.has(connection)) throw notFound(`The player connection '${connection}'`);
      const { attribution } = await live.snapshot(connection);
      return [...attribution.values()].map((a) => ({ songId: String(a.songId), addedBy: { kind: a.kind, name: a.name } }));
    },

    /** Anyone with the link: what the guest page shows before joining; 404 unless open. */
    async info(id: string): Promise<{ id: string; name: string; songsPerGuest: number; skipVotes: number }> {
      const r = await openRoom(id);
      return { id: r.id, name: r.name, songsPerGuest: r.songsPerGuest, skipVotes: r.skipVotes };
    },

    /** Anyone with the link joins (limits per address and per room → 429); the token opens this room only. */
    async join(id: string, rawName: unknown, address: string): Promise<{ success: true; token: string; guest: { id: string; name: string } }> {
      const r = await openRoom(id);
      const wait = joins.take(address, limits.joinsPerAddressPerHour);
      if (wait > 0) throw new AppError('rate-limited', 'Too many joins from this address; try again later.', { retryAfterSeconds: wait });
      if ((await repo.countGuests(db, id)) >= limits.guestsPerRoom) throw new AppError('rate-limited', 'The room is full.', { retryAfterSeconds: 60, reason: 'room.full' });
      const guests = await repo.guestsOf(db, id);
      const name = cleanName(rawName) || `Guest ${guests.length + 1}`;
      const token = randomBytes(32).toString('base64url');
      const guest: RoomGuestRecord = { id: randomId(), roomId: id, name, joined: clock.now(), firstAdded: null };
      await repo.insertGuest(db, guest, hashToken(token));
      seen.set(guest.id, clock.now());
      deps.events.emit({ type: 'room-guest-joined', roomId: id, roomName: r.name, guestName: name, guests: guests.length + 1 });
      void live.watch(r.connection);
      return { success: true, token, guest: { id: guest.id, name } };
    },

    /**
     * The guest a token names in room `id`: 404 when the room is not open
     * (checked first, so a closed room says so), 401 for a missing or
     * unknown token or one of another room.
     */
    async guest(id: string, token: string | undefined): Promise<RoomGuest> {
      const room = await openRoom(id);
      const guest = token ? await repo.guestByToken(db, hashToken(token)) : undefined;
      if (!guest || guest.roomId !== id) throw unauthenticated();
      seen.set(guest.id, clock.now());
      return { room, guest };
    },

    async state(g: RoomGuest): Promise<RoomStateView> {
      const { snapshot, attribution } = await live.snapshot(g.room.connection);
      return stateFor(g, snapshot, attribution);
    },

    async search(g: RoomGuest, q: string, start: number, end: number) {
      const text = q.trim();
      if (!text) return [];
      return (await searchLibrary(gateway, g.room.connection, text, start, Math.min(end, start + 100))).map(describeSong);
    },

    /**
     * Adds a library song for the guest: a URL, a stored playlist or a folder
     * is 404 (not a song of the library); beyond `songsPerGuest` waiting
     * songs or the adds per minute → 429. Returns the queue song id.
     */
    async add(g: RoomGuest, file: string): Promise<BasicResult & { id: string }> {
      const c = g.room.connection;
      return live.serial(c, async () => {
        const song = await librarySong(gateway, c, file);
        if (!song) throw notFound('The song in the music library');
        const snap = await live.refreshNow(c);
        const queued = waitingCounts(snap, live.attribution(c), g.room.id).get(g.guest.id) ?? 0;
        if (queued >= g.room.songsPerGuest) {
          throw new AppError('rate-limited', `You have ${queued} songs waiting, the most this room allows; add more when one has played.`, { retryAfterSeconds: 60, reason: 'room.song-limit' });
        }
        const wait = adds.take(g.guest.id, limits.addsPerGuestPerMinute);
        if (wait > 0) throw new AppError('rate-limited', 'You are adding songs too fast; wait a moment.', { retryAfterSeconds: wait });
        const id = await addSong(gateway, c, song.file);
        const now = clock.now();
        await repo.markFirstAdded(db, g.guest.id, now);
        await repo.insertSong(db, { roomId: g.room.id, songId: Number(id), file: song.file, kind: 'guest', guestId: g.guest.id, name: g.guest.name, added: now });
        // the queue had run out: the guest's song starts the music again
        if (snap.status.state === 'stop' && snap.status.song === null) await command(gateway, c, `playid ${Number(id)}`);
        await live.refreshNow(c);
        return { success: true, message: 'The song was added.', code: 'room.song-added', id };
      });
    },

    /** Removes one of the guest's own songs; another's → 403, one not queued → 404. */
    async removeSong(g: RoomGuest, songId: string): Promise<BasicResult> {
      const c = g.room.connection;
      return live.serial(c, async () => {
        await live.refreshNow(c);
        const a = live.attribution(c).get(songId);
        if (!a) throw notFound('The song in the queue');
        if (a.roomId !== g.room.id || a.guestId !== g.guest.id) throw forbidden('Only the guest who added a song can remove it.');
        await command(gateway, c, `deleteid ${Number(songId)}`);
        await live.refreshNow(c);
        return { success: true, message: 'The song was removed.', code: 'room.song-removed' };
      });
    },

    /** One vote per guest and song; at `needed` votes the daemon plays the next song. */
    async skip(g: RoomGuest): Promise<{ votes: number; needed: number; skipped: boolean }> {
      const c = g.room.connection;
      return live.serial(c, async () => {
        const snap = await live.refreshNow(c);
        const need = await needed(g.room);
        const songId = snap.status.state === 'stop' ? null : snap.status.songid;
        if (songId === null) return { votes: 0, needed: need, skipped: false };
        const votes = live.votes(c);
        let v = votes.get(g.room.id);
        if (!v || v.songId !== songId) {
          v = { songId, voters: new Set() };
          votes.set(g.room.id, v);
        }
        v.voters.add(g.guest.id);
        const count = v.voters.size;
        if (count < need) {
          await live.refreshNow(c);
          return { votes: count, needed: need, skipped: false };
        }
        await command(gateway, c, 'next');
        votes.delete(g.room.id);
        await live.refreshNow(c);
        return { votes: count, needed: need, skipped: true };
      });
    },

    /** A guest's live page: the state at once and after every change; `ended` when the room or guest goes. */
    async follow(g: RoomGuest, send: (s: RoomStateView) => void, ended: (reason: string) => void): Promise<() => void> {
      const sub: RoomSubscriber = {
        roomId: g.room.id,
        guestId: g.guest.id,
        changed: (snap, attribution) => {
          stateFor(g, snap, attribution).then(send, (e: unknown) => log.warn('Room state failed', { error: String(e) }));
        },
        ended,
      };
      const unsubscribe = live.subscribe(sub);
      await live.watch(g.room.connection);
      send(await this.state(g));
      return unsubscribe;
    },

    /** Starts watching the connections of open rooms (at start) and every minute closes what expired. */
    start(): void {
      const tick = () => void live.sweep().catch((e: unknown) => log.warn('Room sweep failed', { error: String(e) }));
      tick();
      timer = setInterval(tick, 30_000);
      timer.unref();
    },

    stop(): void {
      if (timer) clearInterval(timer);
      live.stop();
    },
  };
};

export type RoomService = ReturnType<typeof createRoomService>;
