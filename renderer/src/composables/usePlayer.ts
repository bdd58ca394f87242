// State of one player connection for the player page: status, current song,
// queue and stored playlists, loaded over HTTP and refreshed when the
// WebSocket reports a change (no polling). The position of the playing song
// advances locally between updates.
import { computed, onScopeDispose, ref, shallowRef, watch, type Ref } from 'vue';
import { ApiError } from '../api/http';
import { command, commandList } from '../lib/mpd-command';
import * as api from '../api/player';
import type { PlayerStatus, QueueEntry, StoredPlaylist } from '../api/player-types';
import { inLists, moveEntry, restoreCommands, snapshotOf, type QueueSnapshot } from '../lib/queue-edit';
import { usePlayerSocket } from './usePlayerSocket';

function messageOf(error: unknown): string {
  if (error instanceof ApiError || error instanceof Error) return error.message;
  return String(error);
}

export function usePlayer(conn: Ref<string | null>) {
  const status = shallowRef<PlayerStatus | null>(null);
  const current = shallowRef<QueueEntry | null>(null);
  const queue = shallowRef<QueueEntry[]>([]);
  const playlists = shallowRef<StoredPlaylist[]>([]);
  /** The last failure (a refused command, an unreachable daemon), for an alert. */
  const error = ref<string | null>(null);
  /** Bumped when the daemon's database changed, so the library reloads. */
  const databaseVersion = ref(0);

  const elapsed = ref(0);
  let statusAt = 0;
  let statusElapsed = 0;
  const ticker = setInterval(() => {
    const s = status.value;
    if (s?.state === 'play') {
      const d = s.duration ?? s.time?.end ?? Infinity;
      elapsed.value = Math.min(d, statusElapsed + (Date.now() - statusAt) / 1000);
    }
  }, 250);
  onScopeDispose(() => clearInterval(ticker));

  async function guard(task: () => Promise<void>): Promise<boolean> {
    try {
      await task();
      return true;
    } catch (e) {
      error.value = messageOf(e);
      return false;
    }
  }

  // Answers may arrive out of order: only the latest request of each kind is applied.
  const latest = { status: 0, queue: 0, playlists: 0 };

  async function refreshStatus() {
    const id = conn.value;
    if (id === null) return;
    const mine = ++latest.status;
    await guard(async () => {
      const [s, c] = await Promise.all([api.fetchStatus(id), api.fetchCurrentSong(id)]);
      if (id !== conn.value || mine !== latest.status) return;
      status.value = s;
      current.value = c;
      statusElapsed = s.elapsed ?? s.time?.start ?? 0;
      statusAt = Date.now();
      elapsed.value = statusElapsed;
      error.value = null;
    });
  }

  async function refreshQueue() {
    const id = conn.value;
    if (id === null) return;
    const mine = ++latest.queue;
    await guard(async () => {
      const q = await api.fetchQueue(id);
      if (id === conn.value && mine === latest.queue) queue.value = q;
    });
  }

  async function refreshPlaylists() {
    const id = conn.value;
    if (id === null) return;
    const mine = ++latest.playlists;
    await guard(async () => {
      const p = await api.fetchPlaylists(id);
      if (id === conn.value && mine === latest.playlists) playlists.value = p;
    });
  }

  const refreshAll = () => Promise.all([refreshStatus(), refreshQueue(), refreshPlaylists()]);

  // Load over HTTP at once, so the page works even when the socket cannot open; and
  // again whenever the socket (re)opens, as changes made before it listened were not reported.
  watch(conn, () => void refreshAll(), { immediate: true });

  const socket = usePlayerSocket(conn, {
    onOpen: () => void refreshAll(),
    onChanges(changes) {
      if (changes.some((c) => c === 'player' || c === 'mixer' || c === 'options' || c === 'playlist')) void refreshStatus();
      if (changes.includes('playlist')) void refreshQueue();
      if (changes.includes('stored_playlist')) void refreshPlaylists();
      if (changes.includes('database')) databaseVersion.value++;
    },
  });

  /**
   * Sends a command; the page updates when the WebSocket reports the change.
   * Resolves to false (and sets `error`) when the daemon refused it.
   */
  async function send(cmd: string): Promise<boolean> {
    const id = conn.value;
    if (id === null) return false;
    const ok = await guard(async () => {
      await api.run(id, cmd);
    });
    if (ok) error.value = null;
    // Without a live socket nothing would report the change: reload now.
    if (socket.state.value !== 'open') await refreshAll();
    return ok;
  }

  /** Builds commands and runs them in order, stopping at the first refusal; false (and `error` set) then. */
  async function sendAll(build: () => string[]): Promise<boolean> {
    let cmds: string[];
    try {
      cmds = build();
    } catch (e) {
      error.value = messageOf(e);
      return false;
    }
    for (const cmd of cmds) if (!(await send(cmd))) return false;
    return true;
  }

  /** Adds a song at the end of the queue and plays it. */
  async function addAndPlay(uri: string): Promise<boolean> {
    const id = conn.value;
    if (id === null) return false;
    let added: { id: string } | undefined;
    const ok = await guard(async () => {
      added = await api.run<{ id: string }>(id, command('addid', uri));
    });
    return ok && added !== undefined && send(command('playid', Number(added.id)));
  }

  /**
   * Moves the queue entry `id` to position `to`, wherever it is now (the queue may have
   * changed meanwhile); the list shows the move at once, the daemon's answer confirms it.
   */
  async function move(id: string, to: number): Promise<boolean> {
    const from = queue.value.findIndex((e) => e.id === id);
    if (from < 0) return false;
    if (from === to) return true;
    queue.value = moveEntry(queue.value, from, to);
    const ok = await send(command('moveid', Number(id), to));
    if (!ok) void refreshQueue();
    return ok;
  }

  /** What the last "Clear queue" removed, while it can still be undone. */
  const undoable = shallowRef<(QueueSnapshot & { replaced?: boolean }) | null>(null);
  const UNDO_MS = 10_000;
  let undoTimer: ReturnType<typeof setTimeout> | undefined;
  onScopeDispose(() => clearTimeout(undoTimer));
  // the snapshot belongs to the room it was taken in
  watch(conn, () => (undoable.value = null));

  /** What the daemon holds now, not what the page last heard: another client may have just changed it. */
  async function snapshotNow(id: string): Promise<QueueSnapshot | undefined> {
    let snapshot: QueueSnapshot | undefined;
    const read = await guard(async () => {
      const [q, s] = await Promise.all([api.fetchQueue(id), api.fetchStatus(id)]);
      snapshot = snapshotOf(q, s, s.elapsed ?? s.time?.start ?? 0);
    });
    return read ? snapshot : undefined;
  }

  function offerUndo(snapshot: QueueSnapshot & { replaced?: boolean }): void {
    clearTimeout(undoTimer);
    undoable.value = snapshot.files.length > 0 ? snapshot : null;
    undoTimer = setTimeout(() => (undoable.value = null), UNDO_MS);
  }

  async function clear(): Promise<boolean> {
    const id = conn.value;
    if (id === null) return false;
    const snapshot = await snapshotNow(id);
    if (snapshot === undefined || !(await send('clear'))) return false;
    offerUndo(snapshot);
    return true;
  }

  /**
   * Replaces the queue with what `commands` add and plays it from the start: an
   * explicit choice, offered with Undo (the old queue and its place come back).
   */
  async function replaceQueue(commands: string[]): Promise<boolean> {
    const id = conn.value;
    if (id === null) return false;
    const snapshot = await snapshotNow(id);
    if (snapshot === undefined) return false;
    if (!(await sendAll(() => [commandList(['clear', ...commands, 'play 0'])]))) return false;
    offerUndo({ ...snapshot, replaced: true });
    return true;
  }

  /** Puts the cleared songs back on top of the queue and resumes where playback was. */
  async function undoClear(): Promise<boolean> {
    const snapshot = undoable.value;
    if (snapshot === null) return false;
    undoable.value = null;
    clearTimeout(undoTimer);
    // after a replacement the songs that replaced the queue go again
    return sendAll(() => [...(snapshot.replaced ? ['clear'] : []), ...restoreCommands(snapshot)]);
  }

  const playing = computed(() => status.value?.state === 'play');
  const duration = computed(() => status.value?.duration ?? status.value?.time?.end ?? current.value?.song.duration ?? 0);

  return {
    status,
    current,
    queue,
    playlists,
    error,
    elapsed,
    duration,
    playing,
    databaseVersion,
    socketState: socket.state,
    refreshAll,
    send,
    togglePlay: () => send(status.value?.state === 'play' ? 'pause 1' : status.value?.state === 'pause' ? 'pause 0' : 'play'),
    stop: () => send('stop'),
    next: () => send('next'),
    previous: () => send('previous'),
    seek: (seconds: number) => send(command('seekcur', seconds)),
    setVolume: (v: number) => send(command('setvol', Math.max(0, Math.min(100, v)))),
    setOption: (name: 'repeat' | 'random' | 'consume' | 'single', on: boolean) => send(command(name, on ? 1 : 0)),
    playAt: (entry: QueueEntry) => send(command('playid', Number(entry.id))),
    remove: (entry: QueueEntry) => send(command('deleteid', Number(entry.id))),
    move,
    addAndPlay,
    clear,
    undoable,
    undoClear,
    // names come from the address or the user: a line break in one is refused, not thrown
    loadPlaylist: (name: string) => sendAll(() => [command('load', name)]),
    replaceQueue,
    playPlaylist: (name: string) => replaceQueue([command('load', name)]),
    addToPlaylist: (name: string, uris: string[]) => sendAll(() => inLists(uris.map((u) => command('playlistadd', name, u)))),
    savePlaylist: (name: string) => sendAll(() => [command('save', name)]),
    deletePlaylist: (name: string) => sendAll(() => [command('rm', name)]),
  };
}

export type PlayerState = ReturnType<typeof usePlayer>;
