// Shapes of the music gateway's answers that the player page reads: the `Player*`
// schemas of server/openapi.yml (schema.d.ts), plus the client's own names for parts of them.
// (Relative imports end in .js here: the unit tests type-check this file under NodeNext.)
import type { components } from './schema.js';

type Schemas = components['schemas'];

/** A song of the library or the queue: `tags` holds the first value of each tag. */
export type Song = Schemas['PlayerSong'];

/** A queue entry: `id` is the daemon's song id (a string), `pos` the position. */
export type QueueEntry = Schemas['PlayerPlaylistSong'];

/** The daemon's `status`; `state` is `play`, `pause` or `stop`. */
export type PlayerStatus = Schemas['PlayerStatusAnswer']['result'];

/** One envelope of the gateway: `result` for a successful answer. */
export interface Answer<T> {
  success: true;
  type: string;
  result: T;
}

export type PlayerInfo = Schemas['PlayerInfo'];

export type PlayerConnection = PlayerInfo['connections'][number];

export type StoredPlaylist = Schemas['PlayerPlaylistSummaryAnswer']['result']['playlist'][number];

/** An album of the library, found under its album artist. */
export interface AlbumRef {
  album: string;
  albumArtist: string;
}
