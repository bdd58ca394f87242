/**
 * Rooms against a real mpd with a generated library: guests join with a link,
 * add library songs in fair turns (checked with the daemon's own `playlist`),
 * vote to skip, and reach nothing else.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMpd, type MpdInstance } from '../../support/mpd.js';
import { playerConfig } from '../../support/mpd-server.js';
import { ADMIN, startServer, type Json, type TestServer } from '../../support/server.js';

const BLUE1 = 'Artist One/Blue Album/01 - Song 1.flac';
const BLUE2 = 'Artist One/Blue Album/02 - Song 2.flac';
const RED1 = 'Artist Two/Red Album (2CD)/CD1/01 - Red Song 1.mp3';
const RED2 = 'Artist Two/Red Album (2CD)/CD2/01 - Red Song 2.mp3';
const GREEN = 'Various/Green Album/01 green.ogg';
const PURPLE = 'Artist One/Purple Album/01 - Purple.flac';
const BIG = 'Artist Three/Big Album/01 - Big.flac';
const ORANGE = 'Various/Orange Album/Disc 1/01 - Orange.flac';

interface State {
  state: string;
  current: { songId: string; file: string; addedBy: { kind: string; name: string | null } } | null;
  queue: Array<{ songId: string; file: string; title: string; addedBy: { kind: string; name: string | null } }>;
  you: { id: string; name: string; queued: number; limit: number };
  skip: { votes: number; needed: number };
}

describe('rooms against a real mpd', () => {
  let mpd: MpdInstance;
  let s: TestServer;
  let token: string;

  beforeAll(async () => {
    mpd = await startMpd();
    s = await startServer({ config: { ...playerConfig(mpd, { player: { rooms: { 'adds-per-guest-per-minute': 50, 'joins-per-address-per-hour': 200 } } }) } });
    token = await s.login(ADMIN.login, ADMIN.password);
  });
  afterAll(async () => {
    await s?.stop();
    await mpd?.dispose();
  });
  beforeEach(() => {
    mpd.mpc('clear');
    mpd.mpc('repeat', 'off');
    mpd.mpc('random', 'off');
    mpd.mpc('consume', 'off');
  });

  const createRoom = async (body: Json = {}) => {
    const res = await s.request<{ success: boolean; id: string }>('POST', '/api/v1/rooms', { name: 'Party', ...body }, { token });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    return res.body.id;
  };
  const join = async (room: string, name: string) => {
    const res = await s.request<{ token: string; guest: { id: string; name: string } }>('POST', `/api/v1/open/room/${room}/join`, { name });
    expect(res.status, res.text).toBe(200);
    return res.body.token;
  };
  const as = (room: string, guest: string) => ({
    add: (file: string) => s.request<{ success: boolean; id: string }>('POST', `/api/v1/room/${room}/queue`, { file }, { headers: { 'Service-Room': guest } }),
    state: () => s.request<State>('GET', `/api/v1/room/${room}/state`, undefined, { headers: { 'Service-Room': guest } }),
    remove: (songId: string) => s.request('DELETE', `/api/v1/room/${room}/queue/${songId}`, undefined, { headers: { 'Service-Room': guest } }),
    voteToSkip: () => s.request<{ votes: number; needed: number; skipped: boolean }>('POST', `/api/v1/room/${room}/skip`, undefined, { headers: { 'Service-Room': guest } }),
    search: (q: string) => s.request<{ items: Array<{ file: string; title: string }> }>('GET', `/api/v1/room/${room}/search?q=${encodeURIComponent(q)}`, undefined, { headers: { 'Service-Room': guest } }),
  });
  /** The owner's song playing, paused: guests' songs wait after it. */
  const ownerSongPaused = () => {
    mpd.mpc('add', BIG);
    mpd.mpc('play');
    mpd.mpc('pause');
  };
  const daemonFiles = () => mpd.mpc('-f', '%file%', 'playlist').trim().split('\n').filter(Boolean);

  it('creates, lists, shows and changes a room for its owner', async () => {
    const id = await createRoom({ songsPerGuest: 2, skipVotes: 3 });
    expect(id).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    const list = await s.request<{ items: Array<{ id: string }> }>('GET', '/api/v1/rooms', undefined, { token });
    expect(list.body.items.map((r) => r.id)).toContain(id);
    const one = await s.request<Json>('GET', `/api/v1/rooms/${id}`, undefined, { token });
    expect(one.body).toMatchObject({ id, name: 'Party', connection: 'default', enabled: true, songsPerGuest: 2, skipVotes: 3, fallbackPlaylist: null, guests: [] });
    const put = await s.request<{ success: boolean; id: string }>('PUT', `/api/v1/rooms/${id}`, { name: 'Big <b>party</b>\u202E', songsPerGuest: 4 }, { token });
    expect(put.body).toMatchObject({ success: true, id });
    const info = await s.request<Json>('GET', `/api/v1/open/room/${id}`);
    expect(info.body).toEqual({ id, name: 'Big bparty/b', songsPerGuest: 4, skipVotes: 0 });
    const tooLong = await s.request<{ success: boolean; code: string }>('POST', '/api/v1/rooms', { name: 'x', validity: 10 * 365 * 24 * 3600_000 }, { token });
    expect(tooLong.body).toMatchObject({ success: false, code: 'room.validity-exceeded' });
    const anon = await s.request('POST', '/api/v1/rooms', { name: 'x' });
    expect(anon.status).toBe(401);
  });

  it('gives every guest their turn: first songs of all guests before anyone\'s second, as the daemon holds the queue', async () => {
    ownerSongPaused();
    const room = await createRoom({ songsPerGuest: 5 });
    const [a, b, c] = await Promise.all([join(room, 'Anna'), join(room, 'Ben'), join(room, 'Chloé')]);
    // Anna adds three songs before anyone else; Ben two; Chloé one, partly in parallel
    for (const f of [BLUE1, BLUE2, RED1]) expect((await as(room, a!).add(f)).status).toBe(200);
    const [b1, b2] = await Promise.all([as(room, b!).add(RED2), as(room, c!).add(GREEN)]);
    expect(b1.status).toBe(200);
    expect(b2.status).toBe(200);
    expect((await as(room, b!).add(PURPLE)).status).toBe(200);
    const st = (await as(room, a!).state()).body;
    const names = st.queue.map((q) => q.addedBy.name);
    // turn 1: one song of each guest (Anna first, she added first), turn 2: Anna and Ben, turn 3: Anna
    expect(names.slice(0, 3)).toEqual(expect.arrayContaining(['Anna', 'Ben', 'Chloé']));
    expect(names[0]).toBe('Anna');
    expect(names.slice(3)).toEqual(['Anna', 'Ben', 'Anna']);
    expect(st.queue.filter((q) => q.addedBy.name === 'Anna').map((q) => q.file)).toEqual([BLUE1, BLUE2, RED1]);
    // the daemon's own queue is the same order
    expect(daemonFiles()).toEqual([BIG, ...st.queue.map((q) => q.file)]);
    expect(st.you).toMatchObject({ name: 'Anna', queued: 3, limit: 5 });
  });

  it('leaves the songs added on the player where they are', async () => {
    ownerSongPaused();
    const room = await createRoom();
    const [a, b] = [await join(room, 'Anna'), await join(room, 'Ben')];
    await as(room, a).add(BLUE1);
    await as(room, a).add(BLUE2);
    mpd.mpc('add', ORANGE);
    await as(room, b).add(GREEN);
    const files = daemonFiles();
    // Ben's first song takes Anna's second's place; the owner's song stays at position 3
    expect(files).toEqual([BIG, BLUE1, GREEN, ORANGE, BLUE2]);
    const st = (await as(room, a).state()).body;
    expect(st.queue.find((q) => q.file === ORANGE)?.addedBy).toEqual({ kind: 'owner', name: null });
  });

  it('keeps a guest to the room\'s song limit and to library files', async () => {
    ownerSongPaused();
    const room = await createRoom({ songsPerGuest: 2 });
    const a = await join(room, 'Anna');
    expect((await as(room, a).add(BLUE1)).status).toBe(200);
    expect((await as(room, a).add(BLUE2)).status).toBe(200);
    const third = await as(room, a).add(GREEN);
    expect(third.status).toBe(429);
    expect(third.text).toMatch(/songs waiting/);
    for (const file of ['http://example.com/x.mp3', 'file:///etc/passwd', 'Artist One/Blue Album', 'saved', '../outside/secret.txt', 'Artist One/Blue Album/nope.flac']) {
      const b = await join(room, 'Bob');
      const res = await as(room, b).add(file);
      expect([400, 404], file).toContain(res.status);
    }
    expect(daemonFiles()).toEqual([BIG, BLUE1, BLUE2]);
  });

  it('lets a guest remove their own song but not another\'s', async () => {
    ownerSongPaused();
    const room = await createRoom();
    const a = await join(room, 'Anna');
    const b = await join(room, 'Ben');
    const mine = (await as(room, a).add(BLUE1)).body.id;
    const theirs = (await as(room, b).add(BLUE2)).body.id;
    expect((await as(room, a).remove(theirs)).status).toBe(403);
    const ownerSong = (await as(room, a).state()).body;
    expect(ownerSong.queue).toHaveLength(2);
    expect((await as(room, a).remove(mine)).status).toBe(200);
    expect(daemonFiles()).toEqual([BIG, BLUE2]);
  });

  it('skips when enough guests vote, one vote per guest', async () => {
    mpd.mpc('add', BLUE1);
    mpd.mpc('add', BLUE2);
    mpd.mpc('play');
    mpd.mpc('pause');
    const room = await createRoom();
    const [a, b, c] = [await join(room, 'A'), await join(room, 'B'), await join(room, 'C')];
    const first = await as(room, a).voteToSkip();
    expect(first.body).toEqual({ votes: 1, needed: 2, skipped: false });
    const again = await as(room, a).voteToSkip();
    expect(again.body).toEqual({ votes: 1, needed: 2, skipped: false });
    expect((await as(room, a).state()).body.skip).toEqual({ votes: 1, needed: 2 });
    const second = await as(room, b).voteToSkip();
    expect(second.body).toMatchObject({ votes: 2, skipped: true });
    expect(mpd.mpc('-f', '%file%', 'current').trim()).toBe(BLUE2);
    expect((await as(room, c).state()).body.skip.votes).toBe(0);
  });

  it('searches the library for guests', async () => {
    const room = await createRoom();
    const a = await join(room, 'Anna');
    const res = await as(room, a).search('blue song');
    expect(res.status).toBe(200);
    expect(res.body.items.map((i) => i.file).sort()).toEqual([BLUE1, BLUE2]);
  });
});
