/**
 * What a room's guest cannot do, thought of as an attacker holding a room
 * link: no other daemon command, no other room, nothing after the room
 * closes, and the limits on joins and guests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startMpd, type MpdInstance } from '../../support/mpd.js';
import { playerConfig } from '../../support/mpd-server.js';
import { ADMIN, startServer, type Json, type TestServer } from '../../support/server.js';

const BLUE1 = 'Artist One/Blue Album/01 - Song 1.flac';

describe('room guards', () => {
  let mpd: MpdInstance;
  let s: TestServer;
  let token: string;

  beforeAll(async () => {
    mpd = await startMpd();
    s = await startServer({ config: { ...playerConfig(mpd, { player: { rooms: { 'joins-per-address-per-hour': 8, 'guests-per-room': 3 } } }), 'trusted-proxies': ['127.0.0.1'] } });
    token = await s.login(ADMIN.login, ADMIN.password);
  });
  afterAll(async () => {
    await s?.stop();
    await mpd?.dispose();
  });

  const createRoom = async (body: Json = {}) => (await s.request<{ id: string }>('POST', '/api/v1/rooms', { name: 'Party', ...body }, { token })).body.id;
  /** joins from a client address of its own (the server trusts the loopback proxy) */
  const join = async (room: string, name?: unknown, address = '10.0.0.1') =>
    s.request<{ token: string; guest: { id: string; name: string } }>('POST', `/api/v1/open/room/${room}/join`, name === undefined ? {} : { name }, { headers: { 'X-Forwarded-For': address } });
  const guest = (t: string) => ({ headers: { 'Service-Room': t } });

  it('lets a guest token reach nothing but its own room\'s guest routes', async () => {
    mpd.mpc('clear');
    mpd.mpc('add', BLUE1);
    const room = await createRoom();
    const other = await createRoom();
    const g = (await join(room, 'Mallory')).body.token;
    // the gateway and the owner routes do not know room tokens
    for (const [method, path, body] of [
      ['POST', '/api/v1/player', { command: 'clear' }],
      ['POST', '/api/v1/player', { command: 'setvol 100' }],
      ['GET', '/api/v1/playerspecial/status', undefined],
      ['GET', '/api/v1/rooms', undefined],
      ['DELETE', `/api/v1/rooms/${room}`, undefined],
      ['GET', '/api/v1/cover/file/Artist%20One%2FBlue%20Album%2F01%20-%20Song%201.flac', undefined],
      ['GET', '/api/v2/sec/share/search', undefined],
    ] as const) {
      const res = await s.request(method, path, body, { ...guest(g), unchecked: true });
      expect(res.status, `${method} ${path}`).toBe(401);
    }
    // a token opens its own room only
    expect((await s.request('GET', `/api/v1/room/${other}/state`, undefined, guest(g))).status).toBe(401);
    expect((await s.request('GET', `/api/v1/room/${room}/state`, undefined, guest(g + 'x'))).status).toBe(401);
    expect((await s.request('GET', `/api/v1/room/${room}/state`)).status).toBe(401);
    // adding: library song files only, no URL, no stored playlist, no folder, no smuggled second command
    mpd.mpc('save', 'party-list');
    for (const file of ['http://evil.example/stream', 'file:///etc/passwd', 'party-list', 'Artist One', `${BLUE1}"\nclear`, '/etc/passwd', '../outside/secret.txt']) {
      const res = await s.request('POST', `/api/v1/room/${room}/queue`, { file }, guest(g));
      expect([400, 404], JSON.stringify(file)).toContain(res.status);
    }
    expect(mpd.mpc('-f', '%file%', 'playlist').trim().split('\n')).toEqual([BLUE1]);
    // covers only inside the library
    const escape = await s.request('GET', `/api/v1/room/${room}/cover?file=${encodeURIComponent('escape-link/cover.jpg')}`, undefined, guest(g));
    expect(escape.status).toBe(404);
    const cover = await s.request('GET', `/api/v1/room/${room}/cover?file=${encodeURIComponent(BLUE1)}&size=64`, undefined, guest(g));
    expect(cover.status).toBe(200);
    expect(cover.headers.get('content-type')).toMatch(/^image\//);
    mpd.mpc('rm', 'party-list');
  });

  it('cleans guest names to bounded plain text', async () => {
    const room = await createRoom();
    const r = await join(room, '  <img src=x onerror=alert(1)>\u202EAnna\u2066\u200B\n\tMaria ' + 'x'.repeat(100));
    expect(r.status).toBe(200);
    expect(r.body.guest.name).not.toMatch(/[<>\u202E\u2066\u200B\n\t]/);
    expect(r.body.guest.name.startsWith('img src=x onerror=alert(1)Anna Maria')).toBe(true);
    expect([...r.body.guest.name].length).toBeLessThanOrEqual(40);
    const unnamed = await join(room);
    expect(unnamed.body.guest.name).toMatch(/^Guest \d+$/);
  });

  it('limits guests per room (429)', async () => {
    const room = await createRoom();
    for (let i = 0; i < 3; i++) expect((await join(room, `g${i}`, `10.0.1.${i}`)).status).toBe(200);
    const full = await join(room, 'late', '10.0.1.9');
    expect(full.status).toBe(429);
    expect(full.body).toMatchObject({ success: false, code: 'room.full' });
  });

  it('limits joins per client address and hour (429 with Retry-After)', async () => {
    const rooms = [await createRoom(), await createRoom(), await createRoom()];
    for (let i = 0; i < 8; i++) expect((await join(rooms[i % 3]!, `n${i}`, '10.0.0.99')).status).toBe(200);
    const last = await join(rooms[0]!, 'one more', '10.0.0.99');
    expect(last.status).toBe(429);
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('ends every token and closes the live page when the room is closed or deleted', async () => {
    const room = await createRoom();
    const owner = await s.login(ADMIN.login, ADMIN.password);
    // a fresh address budget is not needed: the owner deletes rooms, guests are already in
    const g = (await s.request<{ token: string }>('POST', `/api/v1/open/room/${room}/join`, { name: 'Zoe' }, { headers: { 'X-Forwarded-For': '10.9.9.9' } })).body.token;
    if (!g) return expect.fail('join refused; the join limit of the address is used up');
    const ws = new WebSocket(`${s.url.replace('http', 'ws')}/api/v1/room/${room}/events?token=${encodeURIComponent(g)}`);
    const frames: Json[] = [];
    const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    ws.on('message', (d) => frames.push(JSON.parse(String(d)) as Json));
    await new Promise((r) => ws.once('open', r));
    await expect.poll(() => frames.length).toBeGreaterThan(0);
    expect(frames[0]).toMatchObject({ type: 'RoomState', room: { id: room, name: 'Party' }, you: { name: 'Zoe' } });
    const put = await s.request('PUT', `/api/v1/rooms/${room}`, { name: 'Party', enabled: false }, { token: owner });
    expect(put.status).toBe(200);
    expect(await closed).toMatchObject({ code: 1008 });
    expect((await s.request('GET', `/api/v1/room/${room}/state`, undefined, guest(g))).status).toBe(404);
    expect((await s.request('GET', `/api/v1/open/room/${room}`)).status).toBe(404);
    await s.request('PUT', `/api/v1/rooms/${room}`, { name: 'Party', enabled: true }, { token: owner });
    expect((await s.request('GET', `/api/v1/room/${room}/state`, undefined, guest(g))).status).toBe(200);
    expect((await s.request('DELETE', `/api/v1/rooms/${room}`, undefined, { token: owner })).status).toBe(200);
    expect((await s.request('GET', `/api/v1/room/${room}/state`, undefined, guest(g))).status).toBe(404);
    const refused = new WebSocket(`${s.url.replace('http', 'ws')}/api/v1/room/${room}/events?token=${encodeURIComponent(g)}`);
    const status = await new Promise<number>((resolve) => refused.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)));
    expect(status).toBe(404);
  });

  it('limits the songs a guest adds per minute (429 with Retry-After)', async () => {
    mpd.mpc('clear');
    const room = await createRoom({ songsPerGuest: 20 });
    const g = (await join(room, 'Fast', '10.0.2.1')).body.token;
    const songs = [
      BLUE1,
      'Artist One/Blue Album/02 - Song 2.flac',
      'Artist Two/Red Album (2CD)/CD1/01 - Red Song 1.mp3',
      'Artist Two/Red Album (2CD)/CD2/01 - Red Song 2.mp3',
      'Various/Green Album/01 green.ogg',
      'Artist One/Purple Album/01 - Purple.flac',
      'Artist Three/Big Album/01 - Big.flac',
    ];
    for (const file of songs.slice(0, 6)) expect((await s.request('POST', `/api/v1/room/${room}/queue`, { file }, guest(g))).status, file).toBe(200);
    const seventh = await s.request('POST', `/api/v1/room/${room}/queue`, { file: songs[6] }, guest(g));
    expect(seventh.status).toBe(429);
    expect(Number(seventh.headers.get('retry-after'))).toBeGreaterThan(0);
    mpd.mpc('stop');
    mpd.mpc('clear');
  });

  it('signs one guest out: their token ends, their page closes, their queued song keeps their name', async () => {
    mpd.mpc('clear');
    mpd.mpc('add', 'Artist Three/Big Album/01 - Big.flac');
    mpd.mpc('play');
    mpd.mpc('pause');
    const room = await createRoom();
    const out = await join(room, 'Leaving', '10.0.3.1');
    const stays = (await join(room, 'Staying', '10.0.3.2')).body.token;
    expect((await s.request('POST', `/api/v1/room/${room}/queue`, { file: BLUE1 }, guest(out.body.token))).status).toBe(200);
    const ws = new WebSocket(`${s.url.replace('http', 'ws')}/api/v1/room/${room}/events`, { headers: { 'Service-Room': out.body.token } });
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    await new Promise((r) => ws.once('open', r));
    const res = await s.request('DELETE', `/api/v1/rooms/${room}/guests/${out.body.guest.id}`, undefined, { token });
    expect(res.status).toBe(200);
    expect(await closed).toBe(1008);
    expect((await s.request('GET', `/api/v1/room/${room}/state`, undefined, guest(out.body.token))).status).toBe(401);
    const st = await s.request<{ queue: Array<{ file: string; addedBy: Json }> }>('GET', `/api/v1/room/${room}/state`, undefined, guest(stays));
    expect(st.body.queue).toEqual([expect.objectContaining({ file: BLUE1, addedBy: { kind: 'guest', name: 'Leaving' } })]);
    const view = await s.request<{ guests: Array<{ name: string }> }>('GET', `/api/v1/rooms/${room}`, undefined, { token });
    expect(view.body.guests.map((g) => g.name)).toEqual(['Staying']);
    mpd.mpc('stop');
    mpd.mpc('clear');
  });

  it('lets only the owner (or an admin) see and change a room', async () => {
    const room = await createRoom();
    await s.request('POST', '/api/v2/admin/account', { login: 'eve', state: 'Active', admin: false, password: 'eve-password-1' }, { token });
    const eve = await s.login('eve', 'eve-password-1').catch(() => undefined);
    if (!eve) return expect.fail('could not create the second account');
    expect((await s.request('GET', `/api/v1/rooms/${room}`, undefined, { token: eve })).status).toBe(404);
    expect((await s.request('DELETE', `/api/v1/rooms/${room}`, undefined, { token: eve })).status).toBe(404);
    expect((await s.request<{ items: unknown[] }>('GET', '/api/v1/rooms', undefined, { token: eve })).body.items).toEqual([]);
  });
});
