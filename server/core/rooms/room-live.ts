/**
 * The live side of rooms, per player connection: one watching session on the
 * daemon (its idle loop, through the gateway), the last picture of the queue,
 * fair turns, the fallback song, skip votes and the guests' live pages.
 * Every change of rooms' songs on one connection runs in one queue (`serial`),
 * so limits and reorderings never interleave.
 */
import type { Clock } from '../../common/clock.js';
import type { Logger } from '../../common/log.js';
import type { Db } from '../../db/connect.js';
import type { PlayerGateway } from '../../player/gateway.service.js';
import type { PlayerSession } from '../../player/session.js';
import { addSong, command, readSnapshot, storedPlaylist, swapSongs, type Snapshot } from './room-daemon.js';
import { deleteSongs, guestsOf, insertSong, openRooms, songsOfRooms } from './room.repository.js';
import type { RoomRecord, RoomSongRecord } from './room.types.js';
import { fairSwaps, type WaitingSong } from './turns.js';

/** A guest's live page (the room WebSocket). */
export interface RoomSubscriber {
  roomId: string;
  guestId: string;
  /** called with a fresh picture after every change */
  changed(snapshot: Snapshot, attribution: Attribution): void;
  /** the room or the guest is gone: close with this reason */
  ended(reason: string): void;
}

/** Who added each queue song that rooms know of, by song id. */
export type Attribution = Map<string, RoomSongRecord>;

interface Live {
  session?: PlayerSession;
  opening?: Promise<void>;
  retry?: NodeJS.Timeout;
  snapshot?: Snapshot;
  attribution: Attribution;
  chain: Promise<unknown>;
  /** failed attempts to watch in a row: the retry waits longer each time, and only the first is logged */
  failures: number;
  lastState?: string;
  lastSongId?: string | null;
  /** skip votes for the current song, per room */
  votes: Map<string, { songId: string; voters: Set<string> }>;
  pending?: NodeJS.Timeout;
}

export interface RoomLiveDeps {
  db: Db['db'];
  gateway: PlayerGateway;
  clock: Clock;
  log: Logger;
  random?: () => number;
}

export type RoomLive = ReturnType<typeof createRoomLive>;

/** The songs at or after the current one (all of them when nothing is current). */
export const waitingFrom = (s: Snapshot): number => s.status.song ?? 0;

export const createRoomLive = ({ db, gateway, clock, log, random = Math.random }: RoomLiveDeps) => {
  const lives = new Map<string, Live>();
  const subscribers = new Set<RoomSubscriber>();
  let stopped = false;

  const live = (connection: string): Live => {
    let l = lives.get(connection);
    if (!l) {
      l = { attribution: new Map(), chain: Promise.resolve(), votes: new Map(), failures: 0 };
      lives.set(connection, l);
    }
    return l;
  };

  /** Runs `step` after every earlier step of the connection. */
  const serial = <T>(connection: string, step: () => Promise<T>): Promise<T> => {
    const l = live(connection);
    const run = l.chain.then(step, step);
    l.chain = run.catch(() => undefined);
    return run;
  };

  const roomsOn = async (connection: string): Promise<RoomRecord[]> => (await openRooms(db, clock.now())).filter((r) => r.connection === connection);

  /**
   * Reads the queue, forgets songs that left it, puts room songs in fair
   * turns, plays a fallback song when the queue ran out, and tells every live
   * page. Call inside `serial`.
   */
  const refreshNow = async (connection: string): Promise<Snapshot> => {
    const l = live(connection);
    const rooms = await roomsOn(connection);
    let snap = await readSnapshot(gateway, connection);
    const songs = await songsOfRooms(db, rooms.map((r) => r.id));
    const inQueue = new Map(snap.songs.map((s) => [s.id, s.song.file]));
    const gone = songs.filter((s) => inQueue.get(String(s.songId)) !== s.file);
    for (const r of rooms) await deleteSongs(db, r.id, gone.filter((s) => s.roomId === r.id).map((s) => s.songId));
    const known = songs.filter((s) => !gone.includes(s));
    l.attribution = new Map(known.map((s) => [String(s.songId), s]));

    const since = new Map<string, number>();
    for (const r of rooms) for (const g of await guestsOf(db, r.id)) if (g.firstAdded !== null) since.set(g.id, g.firstAdded);
    const from = snap.status.song === null ? 0 : snap.status.song + 1;
    const waiting: WaitingSong[] = snap.songs.slice(from).map((s) => {
      const a = l.attribution.get(s.id);
      if (!a) return { id: s.id, kind: 'owner' };
      const guest = a.guestId ?? `gone:${a.roomId}:${a.name}`;
      return { id: s.id, kind: a.kind, guest, guestSince: since.get(guest) ?? a.added, added: a.added };
    });
    const swaps = fairSwaps(waiting);
    if (swaps.length > 0) {
      await swapSongs(gateway, connection, swaps);
      snap = await readSnapshot(gateway, connection);
    }

    const fallbackRoom = rooms.find((r) => r.fallbackPlaylist);
    const ranOut = snap.status.state === 'stop' && l.lastState === 'play' && snap.status.nextsong === null && (snap.status.song === null || snap.status.song >= snap.songs.length - 1);
    if (fallbackRoom && ranOut) {
      const played = await playFallback(connection, fallbackRoom);
      if (played) snap = await readSnapshot(gateway, connection);
    }
    if (snap.status.songid !== l.lastSongId) l.votes.clear();
    l.lastState = snap.status.state;
    l.lastSongId = snap.status.songid;
    l.snapshot = snap;
    for (const s of subscribers) if (rooms.some((r) => r.id === s.roomId)) s.changed(snap, l.attribution);
    return snap;
  };

  /** One random song of the room's stored playlist, added and played; false when there is none. */
  const playFallback = async (connection: string, room: RoomRecord): Promise<boolean> => {
    try {
      const files = (await storedPlaylist(gateway, connection, room.fallbackPlaylist!)).filter((f) => !f.includes('://'));
      if (files.length === 0) return false;
      const file = files[Math.floor(random() * files.length)]!;
      const id = await addSong(gateway, connection, file);
      await insertSong(db, { roomId: room.id, songId: Number(id), file, kind: 'fallback', guestId: null, name: room.fallbackPlaylist!, added: clock.now() });
      live(connection).attribution.set(id, { roomId: room.id, songId: Number(id), file, kind: 'fallback', guestId: null, name: room.fallbackPlaylist!, added: clock.now() });
      await command(gateway, connection, `playid ${Number(id)}`);
      return true;
    } catch (e) {
      log.warn('The fallback song could not be played', { room: room.id, error: String(e) });
      return false;
    }
  };

  const refresh = (connection: string): Promise<Snapshot> => serial(connection, () => refreshNow(connection));

  /** A refresh soon, once for a burst of changes. */
  const refreshSoon = (connection: string): void => {
    const l = live(connection);
    if (l.pending) return;
    l.pending = setTimeout(() => {
      l.pending = undefined;
      refresh(connection).catch((e: unknown) => log.warn('Room refresh failed', { connection, error: String(e) }));
    }, 50);
  };

  /** Starts watching the daemon of `connection` (once), so changes reach rooms and the fallback plays. */
  const watch = (connection: string): Promise<void> => {
    const l = live(connection);
    if (stopped || l.session || l.opening || l.retry) return l.opening ?? Promise.resolve();
    l.opening = gateway
      .openSession(
        connection,
        {
          send: (env) => {
            if (env.success && env.type === 'IdleAnswer') refreshSoon(connection);
          },
          lost: () => {
            l.session = undefined;
            if (stopped) return;
            l.retry = setTimeout(() => {
              l.retry = undefined;
              void watch(connection);
            }, 2000);
            l.retry.unref();
          },
        },
        () => Promise.resolve({ caller: { admin: false, room: true } }),
      )
      .then((s) => {
        l.session = s;
        l.failures = 0;
        if (stopped) s.close();
      })
      .catch((e: unknown) => {
        if (l.failures++ === 0) log.warn('Rooms cannot watch the player; trying again', { connection, error: String(e) });
        if (stopped) return;
        l.retry = setTimeout(
          () => {
            l.retry = undefined;
            void watch(connection);
          },
          Math.min(60_000, 2000 * 2 ** Math.min(l.failures, 5)),
        );
        l.retry.unref();
      })
      .finally(() => {
        l.opening = undefined;
      });
    return l.opening;
  };

  /** Stops watching connections without an open room, and ends the pages of rooms that closed. */
  const sweep = async (): Promise<void> => {
    const open = await openRooms(db, clock.now());
    const ids = new Set(open.map((r) => r.id));
    for (const s of [...subscribers]) if (!ids.has(s.roomId)) s.ended('The room is closed.');
    const used = new Set(open.map((r) => r.connection));
    for (const [connection, l] of lives) {
      if (used.has(connection)) void watch(connection);
      else {
        l.session?.close();
        l.session = undefined;
        if (l.retry) clearTimeout(l.retry);
        l.retry = undefined;
      }
    }
    for (const c of used) void watch(c);
  };

  return {
    serial,
    refresh,
    refreshNow,
    watch,
    sweep,
    /** The last picture of the connection's queue, read again when there is none yet. */
    async snapshot(connection: string): Promise<{ snapshot: Snapshot; attribution: Attribution }> {
      const l = live(connection);
      if (!l.snapshot || !l.session) await refresh(connection);
      return { snapshot: l.snapshot!, attribution: l.attribution };
    },
    votes: (connection: string) => live(connection).votes,
    /** Who added what, as of the last refresh (never reads the daemon; safe inside `serial`). */
    attribution: (connection: string): Attribution => live(connection).attribution,
    subscribe(s: RoomSubscriber): () => void {
      subscribers.add(s);
      return () => subscribers.delete(s);
    },
    /** Ends the live pages of a room, or of one guest of it. */
    end(roomId: string, reason: string, guestId?: string): void {
      for (const s of [...subscribers]) if (s.roomId === roomId && (guestId === undefined || s.guestId === guestId)) s.ended(reason);
    },
    subscribersOf: (roomId: string) => [...subscribers].filter((s) => s.roomId === roomId),
    stop(): void {
      stopped = true;
      for (const l of lives.values()) {
        l.session?.close();
        if (l.retry) clearTimeout(l.retry);
        if (l.pending) clearTimeout(l.pending);
      }
      for (const s of [...subscribers]) s.ended('The server is shutting down.');
    },
  };
};
