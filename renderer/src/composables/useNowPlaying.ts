// What the music player is playing, for a glance from another page: the status and
// current song of the connection the player page last used, refreshed when the daemon
// reports a change. Read-only: it never sends a command. `reachable` is false until the
// first answer and whenever the gateway or the daemon does not answer.
import { ref, shallowRef, watch } from 'vue';
import { fetchCurrentSong, fetchInfo, fetchStatus } from '../api/player';
import type { PlayerStatus, QueueEntry } from '../api/player-types';
import { usePlayerSocket } from './usePlayerSocket';

/** The key under which the player page keeps its chosen connection. */
const CONNECTION_KEY = 'player-connection';

function storedConnection(): string | null {
  try {
    return localStorage.getItem(CONNECTION_KEY);
  } catch {
    return null;
  }
}

export function useNowPlaying() {
  const conn = ref<string | null>(null);
  const status = shallowRef<PlayerStatus | null>(null);
  const current = shallowRef<QueueEntry | null>(null);
  const reachable = ref(false);
  let latest = 0;

  async function refresh(): Promise<void> {
    const id = conn.value;
    if (id === null) return;
    const mine = ++latest;
    try {
      const [s, c] = await Promise.all([fetchStatus(id), fetchCurrentSong(id)]);
      if (mine !== latest) return;
      status.value = s;
      current.value = c;
      reachable.value = true;
    } catch {
      if (mine === latest) reachable.value = false;
    }
  }

  const socket = usePlayerSocket(conn, {
    onOpen: () => void refresh(),
    onChanges: (changes) => {
      if (changes.includes('player') || changes.includes('playlist')) void refresh();
    },
  });
  // A closed socket often means the daemon went away: ask, so the block hides.
  watch(socket.state, (s) => {
    if (s === 'closed') void refresh();
  });

  void (async () => {
    try {
      const { connections } = await fetchInfo();
      const stored = storedConnection();
      const pick = connections.find((c) => c.id === stored) ?? connections.find((c) => c.id === 'default') ?? connections[0];
      conn.value = pick?.id ?? null;
      await refresh();
    } catch {
      reachable.value = false;
    }
  })();

  return { conn, status, current, reachable };
}
