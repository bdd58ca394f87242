// Shapes of the music gateway's answers (server/openapi.yml, `Player*` schemas)
// that the player page reads.

/** A song of the library or the queue: `tags` holds the first value of each tag. */
export interface Song {
  file: string;
  'Last-Modified': string | null;
  added: string | null;
  time: number | null;
  duration: number | null;
  format: string | null;
  tags: Record<string, string>;
  allTags: Record<string, string[]>;
}

/** A queue entry: `id` is the daemon's song id (a string), `pos` the position. */
export interface QueueEntry {
  song: Song;
  pos: number;
  id: string;
  prio: number | null;
}

export type PlayState = 'play' | 'pause' | 'stop';

/** The daemon's `status`: the fields the page uses (the answer carries more). */
export interface PlayerStatus {
  volume: number | null;
  repeat: boolean;
  random: boolean;
  /** `0`, `1` or `oneshot` */
  single: string;
  consume: boolean;
  playlist: number;
  playlistlength: number;
  state: PlayState;
  song: number | null;
  songid: string | null;
  elapsed: number | null;
  duration: number | null;
  time: { start: number; end: number } | null;
  bitrate: number | null;
  audio: { asString: string } | null;
  updating_db: string | null;
  error: string | null;
}

/** One envelope of the gateway: `result` for a successful answer. */
export interface Answer<T> {
  success: true;
  type: string;
  result: T;
}

export interface PlayerConnection {
  id: string;
  title: string;
}

export interface PlayerInfo {
  name: string;
  version: string;
  connections: PlayerConnection[];
}

export interface StoredPlaylist {
  playlist: string;
  'Last-Modified': string | null;
}

/** An album of the library, found under its album artist. */
export interface AlbumRef {
  album: string;
  albumArtist: string;
}
