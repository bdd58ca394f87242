// How songs are named and timed on the player page.
import type { Song } from '../api/player-types.js';

/** The title, or the file name without folders and extension. */
export function songTitle(song: Song): string {
  const title = song.tags['title'];
  if (title) return title;
  const name = song.file.split('/').pop() ?? song.file;
  return name.replace(/\.[^.]+$/, '');
}

export function songArtist(song: Song): string {
  return song.tags['artist'] ?? song.tags['albumartist'] ?? '';
}

/** Seconds as `m:ss` (or `h:mm:ss`). */
export function formatTime(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '–:––';
  const s = Math.floor(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

export function songSeconds(song: Song): number | null {
  return song.duration ?? song.time;
}
