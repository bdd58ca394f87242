// A guest in a room: the token kept in this browser (a reload stays in the room),
// the room's state followed live over its WebSocket (reconnecting with a growing
// delay), and the guest's actions. `phase` says what the page shows.
import { computed, onScopeDispose, ref, shallowRef } from 'vue';
import { ApiError } from '../api/http';
import { addToRoom, joinRoom, removeFromRoom, roomEventsUrl, roomInfo, roomState, searchRoom, voteSkip } from '../api/rooms';
import type { RoomInfo, RoomSong, RoomState } from '../api/types';

export type RoomPhase = 'loading' | 'join' | 'in' | 'closed' | 'signed-out' | 'error';

const RETRY_DELAYS = [500, 1000, 2000, 5000, 10000];
const tokenKey = (id: string) => `room-token:${id}`;

function stored(id: string): string | null {
  try {
    return localStorage.getItem(tokenKey(id));
  } catch {
    return null;
  }
}

function store(id: string, token: string | null): void {
  try {
    if (token) localStorage.setItem(tokenKey(id), token);
    else localStorage.removeItem(tokenKey(id));
  } catch {
    // without storage the guest joins again after a reload
  }
}

export function useRoomGuest(roomId: string) {
  const phase = ref<RoomPhase>('loading');
  const info = ref<RoomInfo | null>(null);
  const state = shallowRef<RoomState | null>(null);
  const token = ref<string | null>(stored(roomId));
  const live = ref(false);
  let socket: WebSocket | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let attempt = 0;
  let stopped = false;

  /** The room is gone (404) or the token no longer opens it (401). */
  function lost(e: unknown): boolean {
    if (!(e instanceof ApiError)) return false;
    if (e.status === 404) {
      phase.value = 'closed';
      disconnect();
      return true;
    }
    if (e.status === 401) {
      store(roomId, null);
      token.value = null;
      phase.value = 'signed-out';
      disconnect();
      return true;
    }
    return false;
  }

  function disconnect(): void {
    clearTimeout(timer);
    const s = socket;
    socket = null;
    s?.close();
    live.value = false;
  }

  function connect(): void {
    if (stopped || !token.value) return;
    const s = new WebSocket(roomEventsUrl(roomId, token.value));
    socket = s;
    s.onopen = () => {
      attempt = 0;
      live.value = true;
    };
    s.onmessage = (ev: MessageEvent) => {
      try {
        const frame = JSON.parse(String(ev.data)) as RoomState & { type?: string };
        if (frame.type === 'RoomState') state.value = frame;
      } catch {
        // not a frame of ours
      }
    };
    s.onclose = (ev: CloseEvent) => {
      if (socket !== s) return;
      socket = null;
      live.value = false;
      if (stopped) return;
      // 1008: the room closed or the guest was signed out; the state route says which
      if (ev.code === 1008) {
        void refresh();
        return;
      }
      timer = setTimeout(connect, RETRY_DELAYS[Math.min(attempt++, RETRY_DELAYS.length - 1)]);
    };
  }

  async function refresh(): Promise<void> {
    if (!token.value) return;
    try {
      state.value = await roomState(roomId, token.value);
      phase.value = 'in';
    } catch (e) {
      if (!lost(e)) throw e;
    }
  }

  async function start(): Promise<void> {
    try {
      info.value = await roomInfo(roomId);
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) {
        phase.value = 'closed';
        return;
      }
      phase.value = 'error';
      throw e;
    }
    if (!token.value) {
      phase.value = 'join';
      return;
    }
    await refresh();
    if (phase.value === 'in') connect();
  }

  async function join(name: string): Promise<void> {
    try {
      const r = await joinRoom(roomId, name);
      token.value = r.token;
      store(roomId, r.token);
      await refresh();
      connect();
    } catch (e) {
      if (!lost(e)) throw e;
    }
  }

  async function guarded<T>(action: (t: string) => Promise<T>): Promise<T | undefined> {
    if (!token.value) return undefined;
    try {
      return await action(token.value);
    } catch (e) {
      if (lost(e)) return undefined;
      throw e;
    }
  }

  const yours = computed(() => {
    const s = state.value;
    if (!s) return [];
    const all = [...(s.current ? [s.current] : []), ...s.queue];
    return all.filter((e) => e.addedBy.kind === 'guest' && e.addedBy.name === s.you.name && isMine(e.songId));
  });
  // songs this browser added: a guest of the same name is someone else
  const mine = ref<Set<string>>(new Set(JSON.parse(safeGet(`room-songs:${roomId}`) ?? '[]') as string[]));
  function isMine(songId: string): boolean {
    return mine.value.has(songId);
  }
  function remember(songId: string): void {
    mine.value = new Set([...mine.value, songId]);
    safeSet(`room-songs:${roomId}`, JSON.stringify([...mine.value].slice(-50)));
  }
  const atLimit = computed(() => !!state.value && state.value.you.queued >= state.value.you.limit);

  onScopeDispose(() => {
    stopped = true;
    disconnect();
  });

  return {
    phase,
    info,
    state,
    live,
    yours,
    atLimit,
    start,
    join,
    search: (q: string) => guarded<RoomSong[]>((t) => searchRoom(roomId, t, q)),
    async add(file: string): Promise<string | undefined> {
      const id = await guarded((t) => addToRoom(roomId, t, file));
      if (id) {
        remember(id);
        await refresh();
      }
      return id;
    },
    async remove(songId: string): Promise<void> {
      await guarded((t) => removeFromRoom(roomId, t, songId));
      await refresh();
    },
    async skip() {
      const r = await guarded((t) => voteSkip(roomId, t));
      await refresh();
      return r;
    },
    token,
  };
}

function safeGet(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function safeSet(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // kept for this page only
  }
}
