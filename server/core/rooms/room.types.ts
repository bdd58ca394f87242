/** Rooms as the core sees them (rows never leave `room.repository.ts`). */

export interface RoomRecord {
  id: string;
  ownerId: string;
  connection: string;
  name: string;
  created: number;
  validUntil: number;
  enabled: boolean;
  songsPerGuest: number;
  skipVotes: number;
  fallbackPlaylist: string | null;
}

export interface RoomGuestRecord {
  id: string;
  roomId: string;
  name: string;
  joined: number;
  /** when the guest first added a song; orders the turns */
  firstAdded: number | null;
}

export type AddedByKind = 'guest' | 'owner' | 'fallback';

export interface RoomSongRecord {
  roomId: string;
  songId: number;
  file: string;
  kind: 'guest' | 'fallback';
  guestId: string | null;
  name: string;
  added: number;
}

/** What the owner sends to create or change a room (validated by the OpenAPI schema). */
export interface RoomInput {
  name: string;
  connection?: string;
  /** milliseconds */
  validity?: number;
  songsPerGuest?: number;
  skipVotes?: number;
  fallbackPlaylist?: string | null;
  enabled?: boolean;
}

/** The API's Room. */
export interface RoomView {
  id: string;
  name: string;
  connection: string;
  created: number;
  validUntil: number;
  enabled: boolean;
  songsPerGuest: number;
  skipVotes: number;
  fallbackPlaylist: string | null;
  guests: Array<{ id: string; name: string; joined: number; queued: number }>;
}

export interface QueueEntry {
  songId: string;
  file: string;
  title: string;
  artist: string;
  album: string;
  duration: number | null;
  addedBy: { kind: AddedByKind; name: string | null };
}

export interface RoomStateView {
  room: { id: string; name: string };
  state: 'play' | 'pause' | 'stop';
  elapsed: number | null;
  duration: number | null;
  current: QueueEntry | null;
  queue: QueueEntry[];
  you: { id: string; name: string; queued: number; limit: number };
  skip: { votes: number; needed: number };
}
