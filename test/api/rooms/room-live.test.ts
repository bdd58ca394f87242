/**
 * Rooms over time: the live page follows the queue, the fallback playlist
 * keeps the music going when the queue runs out, and who added what survives
 * a restart of the server while the song is still queued.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startMpd, type MpdInstance } from '../../support/mpd.js';
import { playerConfig } from '../../support/mpd-server.js';
import { ADMIN, startServer, type Json, type TestServer } from '../../support/server.js';

const LINK = 'Various/Link Album/01 - Link.flac';
const GREEN = 'Various/Green Album/01 green.ogg';
const BLUE1 = 'Artist One/Blue Album/01 - Song 1.flac';
const BIG = 'Artist Three/Big Album/01 - Big.flac';

interface State {
  state: string;
  current: { file: string; addedBy: { kind: string; name: string | null } } | null;
  queue: Array<{ songId: string; file: string; addedBy: { kind: string; name: string | null } }>;
}

describe('rooms over time', () => {
  let mpd: MpdInstance;
  let s: TestServer;
  let token: string;

  beforeAll(async () => {
    mpd = await startMpd();
    s = await startServer({ config: playerConfig(mpd) });
    token = await s.login(ADMIN.login, ADMIN.password);
  });
  afterAll(async () => {
    await s?.stop();
    await mpd?.dispose();
  });

  const createRoom = async (server: TestServer, body: Json = {}) => (await server.request<{ id: string }>('POST', '/api/v1/rooms', { name: 'Party', ...body }, { token })).body.id;
  const join = async (server: TestServer, room: string, name: string) => (await server.request<{ token: string }>('POST', `/api/v1/open/room/${room}/join`, { name })).body.token;
  const state = async (server: TestServer, room: string, g: string) => (await server.request<State>('GET', `/api/v1/room/${room}/state`, undefined, { headers: { 'Service-Room': g } })).body;

  it('sends a RoomState frame at once and after every change of the queue', async () => {
    mpd.mpc('clear');
    mpd.mpc('add', BIG);
    mpd.mpc('play');
    mpd.mpc('pause');
    const room = await createRoom(s);
    const g = await join(s, room, 'Live');
    const ws = new WebSocket(`${s.url.replace('http', 'ws')}/api/v1/room/${room}/events`, { headers: { 'Service-Room': g } });
    const frames: Array<State & { type: string }> = [];
    ws.on('message', (d) => frames.push(JSON.parse(String(d)) as State & { type: string }));
    await expect.poll(() => frames.length).toBeGreaterThan(0);
    expect(frames[0]).toMatchObject({ type: 'RoomState', state: 'pause', current: { file: BIG, addedBy: { kind: 'owner' } }, queue: [] });
    // the owner adds on the player: the guests' page follows
    mpd.mpc('add', BLUE1);
    await expect.poll(() => frames.at(-1)?.queue.map((q) => q.file), { timeout: 3000 }).toEqual([BLUE1]);
    ws.close();
  });

  it('plays a random song of the fallback playlist when the queue runs out, and a guest\'s song before the next one', async () => {
    mpd.mpc('clear');
    mpd.mpc('add', GREEN);
    mpd.mpc('save', 'fallback-list');
    mpd.mpc('clear');
    const room = await createRoom(s, { fallbackPlaylist: 'fallback-list' });
    const g = await join(s, room, 'Short');
    // the queue is empty and stopped: the guest's one-second song starts the music
    expect((await s.request('POST', `/api/v1/room/${room}/queue`, { file: LINK }, { headers: { 'Service-Room': g } })).status).toBe(200);
    await expect.poll(async () => (await state(s, room, g)).current?.file, { timeout: 2000 }).toBe(LINK);
    // then the fallback: one song of the playlist, added and played, marked as such
    await expect.poll(async () => (await state(s, room, g)).current, { timeout: 6000, interval: 200 }).toMatchObject({ file: GREEN, addedBy: { kind: 'fallback', name: 'fallback-list' } });
    expect(mpd.mpc('-f', '%file%', 'current').trim()).toBe(GREEN);
    // a guest's song queued while the fallback plays comes before any further fallback song
    expect((await s.request('POST', `/api/v1/room/${room}/queue`, { file: LINK }, { headers: { 'Service-Room': g } })).status).toBe(200);
    const st = await state(s, room, g);
    expect(st.queue[0]).toMatchObject({ file: LINK, addedBy: { kind: 'guest', name: 'Short' } });
    mpd.mpc('stop');
    await s.request('DELETE', `/api/v1/rooms/${room}`, undefined, { token });
    mpd.mpc('rm', 'fallback-list');
  });

  it('keeps who added a queued song across a restart of the server', async () => {
    mpd.mpc('stop');
    mpd.mpc('clear');
    mpd.mpc('add', BIG);
    mpd.mpc('play');
    mpd.mpc('pause');
    const dataDir = mkdtempSync(joinPath(tmpdir(), 'pier-rooms-'));
    const first = await startServer({ config: playerConfig(mpd), dataDir });
    const owner = await first.login(ADMIN.login, ADMIN.password);
    const room = (await first.request<{ id: string }>('POST', '/api/v1/rooms', { name: 'Kept' }, { token: owner })).body.id;
    const g = await join(first, room, 'Remembered');
    expect((await first.request('POST', `/api/v1/room/${room}/queue`, { file: BLUE1 }, { headers: { 'Service-Room': g } })).status).toBe(200);
    await first.stop();
    // a new server process on the same database and the same daemon queue
    const again = await startServer({ config: playerConfig(mpd), dataDir });
    const st = await state(again, room, g);
    expect(st.queue).toEqual([expect.objectContaining({ file: BLUE1, addedBy: { kind: 'guest', name: 'Remembered' } })]);
    const owner2 = await again.login(ADMIN.login, ADMIN.password);
    const addedBy = await again.request<{ items: Array<{ songId: string; addedBy: Json }> }>('GET', '/api/v1/rooms/added-by', undefined, { token: owner2 });
    expect(addedBy.body.items.map((i) => i.addedBy)).toEqual([{ kind: 'guest', name: 'Remembered' }]);
    await again.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
});
