// Rooms: the owner's routes (`/api/v1/rooms`, signed in) and a guest's routes
// (`/api/v1/open/room/{id}` and, with the room token in `Service-Room`, `/api/v1/room/{id}/...`).
import { apiFetch, apiResult, type BasicResult } from './http';
import type { IdResult, Room, RoomAddedBy, RoomInfo, RoomInput, RoomJoinResult, RoomSkipResult, RoomSong, RoomState } from './types';

const enc = encodeURIComponent;

export const listRooms = async (): Promise<Room[]> => (await apiFetch<{ items: Room[] }>('/api/v1/rooms')).items;
export const createRoom = async (input: RoomInput): Promise<string> => (await apiResult<IdResult>('/api/v1/rooms', { method: 'POST', body: input })).id;
export const updateRoom = async (id: string, input: RoomInput): Promise<void> => {
  await apiResult<IdResult>(`/api/v1/rooms/${enc(id)}`, { method: 'PUT', body: input });
};
export const getRoom = (id: string): Promise<Room> => apiFetch<Room>(`/api/v1/rooms/${enc(id)}`);
export const deleteRoom = async (id: string): Promise<void> => {
  await apiResult<BasicResult>(`/api/v1/rooms/${enc(id)}`, { method: 'DELETE' });
};
export const signOutGuest = async (id: string, guestId: string): Promise<void> => {
  await apiResult<BasicResult>(`/api/v1/rooms/${enc(id)}/guests/${enc(guestId)}`, { method: 'DELETE' });
};
/** Who added the songs rooms know of, by queue song id. */
export const addedBy = async (connection: string): Promise<Map<string, RoomAddedBy>> => {
  const r = await apiFetch<{ items: Array<{ songId: string; addedBy: RoomAddedBy }> }>(`/api/v1/rooms/added-by?connection=${enc(connection)}`);
  return new Map(r.items.map((i) => [i.songId, i.addedBy]));
};

// the guest's side: never the session of whoever else uses this browser
const asGuest = (token: string) => ({ headers: { 'Service-Room': token }, noAuthRedirect: true });

export const roomInfo = (id: string): Promise<RoomInfo> => apiFetch<RoomInfo>(`/api/v1/open/room/${enc(id)}`, { noAuthRedirect: true });
export const joinRoom = (id: string, name: string): Promise<RoomJoinResult> =>
  apiFetch<RoomJoinResult>(`/api/v1/open/room/${enc(id)}/join`, { method: 'POST', body: { name }, noAuthRedirect: true });
export const roomState = (id: string, token: string): Promise<RoomState> => apiFetch<RoomState>(`/api/v1/room/${enc(id)}/state`, asGuest(token));
export const searchRoom = async (id: string, token: string, q: string): Promise<RoomSong[]> =>
  (await apiFetch<{ items: RoomSong[] }>(`/api/v1/room/${enc(id)}/search?q=${enc(q)}&range=0:50`, asGuest(token))).items;
export const addToRoom = async (id: string, token: string, file: string): Promise<string> =>
  (await apiResult<IdResult>(`/api/v1/room/${enc(id)}/queue`, { method: 'POST', body: { file }, ...asGuest(token) })).id;
export const removeFromRoom = async (id: string, token: string, songId: string): Promise<void> => {
  await apiFetch(`/api/v1/room/${enc(id)}/queue/${enc(songId)}`, { method: 'DELETE', ...asGuest(token) });
};
export const voteSkip = (id: string, token: string): Promise<RoomSkipResult> => apiFetch<RoomSkipResult>(`/api/v1/room/${enc(id)}/skip`, { method: 'POST', ...asGuest(token) });

/** A cover as an object URL (an image element cannot send the token); null when there is none. */
export async function roomCover(id: string, token: string, file: string, size: number): Promise<string | null> {
  const res = await fetch(`/api/v1/room/${enc(id)}/cover?file=${enc(file)}&size=${size}`, { headers: { 'Service-Room': token } });
  if (!res.ok) return null;
  return URL.createObjectURL(await res.blob());
}

/** The room's WebSocket URL; the token goes in the query (a browser cannot set headers on a WebSocket). */
export const roomEventsUrl = (id: string, token: string): string =>
  `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/v1/room/${enc(id)}/events?token=${enc(token)}`;
