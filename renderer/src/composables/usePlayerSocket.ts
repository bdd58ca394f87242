// The one live connection of the player page: a WebSocket on
// `/api/v1/player/<id>` that reports the daemon's changes (`IdleAnswer`
// frames) and reconnects by itself, with a growing delay, when it closes.
import { onScopeDispose, readonly, ref, watch, type Ref } from 'vue';

export type SocketState = 'connecting' | 'open' | 'closed';

export interface PlayerSocketOptions {
  /** The daemon reported changes, e.g. `['player', 'mixer']`. */
  onChanges: (changes: string[]) => void;
  /** The socket (re)opened: changes made meanwhile were missed, so reload everything. */
  onOpen?: () => void;
}

/** Delays between reconnection attempts, in ms; the last one repeats. */
const RETRY_DELAYS = [500, 1000, 2000, 5000, 10000, 20000];

interface IdleFrame {
  type: string;
  result?: { changes?: unknown };
}

function socketUrl(conn: string): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}/api/v1/player/${encodeURIComponent(conn)}`;
}

/**
 * Keeps a WebSocket open to connection `conn` (reopened when it changes) for
 * as long as the calling component lives. Authentication is the session
 * cookie the browser sends with the upgrade.
 */
export function usePlayerSocket(conn: Ref<string | null>, options: PlayerSocketOptions) {
  const state = ref<SocketState>('closed');
  let socket: WebSocket | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let attempt = 0;
  let stopped = false;

  function onMessage(event: MessageEvent) {
    if (typeof event.data !== 'string') return;
    let frame: IdleFrame;
    try {
      frame = JSON.parse(event.data) as IdleFrame;
    } catch {
      return;
    }
    const changes = frame.result?.changes;
    if (frame.type === 'IdleAnswer' && Array.isArray(changes)) {
      options.onChanges(changes.filter((c): c is string => typeof c === 'string'));
    }
  }

  function open(id: string) {
    clearTimeout(timer);
    state.value = 'connecting';
    const ws = new WebSocket(socketUrl(id));
    socket = ws;
    ws.onopen = () => {
      attempt = 0;
      state.value = 'open';
      options.onOpen?.();
    };
    ws.onmessage = onMessage;
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = null;
      state.value = 'closed';
      if (stopped) return;
      const delay = RETRY_DELAYS[Math.min(attempt, RETRY_DELAYS.length - 1)]!;
      attempt++;
      timer = setTimeout(() => open(id), delay);
    };
  }

  function close() {
    clearTimeout(timer);
    const ws = socket;
    socket = null;
    if (ws) {
      ws.onclose = null;
      ws.close(1000);
    }
    state.value = 'closed';
  }

  watch(
    conn,
    (id) => {
      close();
      attempt = 0;
      if (id !== null && !stopped) open(id);
    },
    { immediate: true },
  );

  /** Reconnect now (e.g. after the browser came back online), without waiting for the timer. */
  function reconnect() {
    if (conn.value !== null && state.value === 'closed') {
      attempt = 0;
      open(conn.value);
    }
  }

  const onOnline = () => reconnect();
  window.addEventListener('online', onOnline);

  onScopeDispose(() => {
    stopped = true;
    window.removeEventListener('online', onOnline);
    close();
  });

  return { state: readonly(state), reconnect };
}
