// The playing song outside the page: in the tab's title, and through the Media Session
// API (metadata with the cover; play, pause, next and previous) on the lock screen, in
// the system's media controls and for the keyboard's media keys. Lives as long as the
// calling component.
import { onScopeDispose, watchEffect, type Ref } from 'vue';
import { useUiStore } from '../stores/ui';
import { coverOfSong, thumbnailSize } from '../api/player';
import { songArtist, songTitle } from '../lib/song-format';
import type { PlayerState } from './usePlayer';

type Action = 'play' | 'pause' | 'nexttrack' | 'previoustrack';

/** Media keys that arrive as key presses (when the browser does not route them to the media session). */
const keyActions: Record<string, Action | 'toggle'> = {
  MediaPlayPause: 'toggle',
  MediaPlay: 'play',
  MediaPause: 'pause',
  MediaTrackNext: 'nexttrack',
  MediaTrackPrevious: 'previoustrack',
};

export function useMediaSession(player: PlayerState, conn: Ref<string | null>): void {
  const ui = useUiStore();
  const session = typeof navigator !== 'undefined' && 'mediaSession' in navigator ? navigator.mediaSession : null;

  watchEffect(() => {
    const song = player.current.value?.song;
    const state = player.status.value?.state ?? 'stop';
    ui.titleDetail = song && state !== 'stop' ? [songTitle(song), songArtist(song)].filter(Boolean).join(' · ') : null;
    if (!session) return;
    session.playbackState = state === 'play' ? 'playing' : state === 'pause' ? 'paused' : 'none';
    if (!song || conn.value === null || typeof MediaMetadata === 'undefined') {
      session.metadata = null;
      return;
    }
    const artwork = [256, 512].map((px) => ({ src: new URL(coverOfSong(conn.value!, song.file, thumbnailSize(px, 1)), location.href).href, sizes: `${px}x${px}` }));
    session.metadata = new MediaMetadata({ title: songTitle(song), artist: songArtist(song), album: song.tags['album'] ?? '', artwork });
  });

  // A key press and the media session may both report one press: the second within 300 ms is ignored.
  let last = { action: '', at: 0 };
  function act(action: Action | 'toggle'): void {
    const now = Date.now();
    const kind = action === 'toggle' || action === 'play' || action === 'pause' ? 'playback' : action;
    if (last.action === kind && now - last.at < 300) return;
    last = { action: kind, at: now };
    if (action === 'nexttrack') void player.next();
    else if (action === 'previoustrack') void player.previous();
    else if (action === 'toggle') void player.togglePlay();
    else if (action === 'play' && !player.playing.value) void player.togglePlay();
    else if (action === 'pause' && player.playing.value) void player.togglePlay();
  }

  const actions: Action[] = ['play', 'pause', 'nexttrack', 'previoustrack'];
  for (const a of actions) {
    try {
      session?.setActionHandler(a, () => act(a));
    } catch {
      // an action this browser does not know
    }
  }
  function onKey(event: KeyboardEvent): void {
    const action = keyActions[event.key];
    if (!action) return;
    event.preventDefault();
    act(action);
  }
  window.addEventListener('keydown', onKey);

  onScopeDispose(() => {
    window.removeEventListener('keydown', onKey);
    ui.titleDetail = null;
    if (!session) return;
    for (const a of actions) {
      try {
        session.setActionHandler(a, null);
      } catch {
        // as above
      }
    }
    session.metadata = null;
    session.playbackState = 'none';
  });
}
