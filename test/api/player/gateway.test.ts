import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMpd, type MpdInstance } from '../../support/mpd.js';
import { playerConfig } from '../../support/mpd-server.js';
import type { Envelope } from '../../support/player-socket.js';
import { ADMIN, startServer, type Json, type TestServer } from '../../support/server.js';

describe('the music gateway over HTTP against a real mpd', () => {
  let mpd: MpdInstance;
  let s: TestServer;
  let token: string;

  beforeAll(async () => {
    mpd = await startMpd();
    s = await startServer({
      config: playerConfig(mpd, { connections: { second: { host: '127.0.0.1', port: mpd.port, title: 'Second' } } }),
    });
    token = await s.login(ADMIN.login, ADMIN.password);
  });
  afterAll(async () => {
    await s?.stop();
    await mpd?.dispose();
  });

  const post = (command: string, path = '/api/v1/player') => s.request<Envelope>('POST', path, { command }, { token });
  const get = (path: string) => s.request<Envelope>('GET', path, undefined, { token });

  it('answers status as a typed StatusAnswer, with and without the connection id', async () => {
    for (const path of ['/api/v1/player', '/api/v1/player/default', '/api/v1/player/second']) {
      const res = await post('status', path);
      expect(res.status, path).toBe(200);
      expect(res.body.type).toBe('StatusAnswer');
      expect(res.body.result).toMatchObject({ volume: expect.any(Number), repeat: false, state: 'stop', playlistlength: expect.any(Number) });
    }
  });

  it('converts find into songs with multi-value tags kept', async () => {
    const res = await post('find album "Green Album"');
    expect(res.status).toBe(200);
    expect(res.body.type).toBe('SongListAnswer');
    const songs = res.body.result!['songs'] as Array<Json & { tags: Json; allTags: Json }>;
    expect(songs).toHaveLength(1);
    expect(songs[0]).toMatchObject({ file: 'Various/Green Album/01 green.ogg', time: 2, duration: 2, format: '44100:f:2' });
    expect(songs[0]!.tags).toMatchObject({ title: 'Green Song "quoted"', artist: 'Artist Three', album: 'Green Album', track: '1' });
    expect(songs[0]!.allTags['artist']).toEqual(['Artist Three', 'Artist Four']);
  });

  it('maps an ACK to 400 with type Ack', async () => {
    const res = await post('playlistinfo 999');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      type: 'Ack',
      ack: { code: { value: 2, name: 'invalid_argument' }, position: 0, command: 'playlistinfo', message: 'Bad song index' },
    });
    const unknown = await post('frobnicate');
    expect(unknown.status).toBe(400);
    expect(unknown.body.ack).toMatchObject({ code: { value: 5, name: 'unknown_command' }, command: '' });
  });

  it('refuses line breaks, NUL, empty commands, idle and noidle with 400 type Error', async () => {
    for (const bad of ['', '   ', 'status\nstats', 'status\r', 'stat\0us', 'idle', 'noidle', 'IDLE player', 'command_list_begin']) {
      const res = await post(bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.type).toBe('Error');
      expect(res.body.error?.message).toEqual(expect.any(String));
    }
    const noBody = await s.request('POST', '/api/v1/player', { cmd: 'status' }, { token });
    expect(noBody.status).toBe(400);
  });

  it('accepts a command list written with line breaks', async () => {
    const plain = await post('command_list_begin\nclear\nadd "Artist One/Blue Album"\ncommand_list_end');
    expect(plain.status).toBe(200);
    expect(plain.body.type).toBe('Empty');
    const ok = await post('command_list_ok_begin\nstatus\nplaylistinfo\ncommand_list_end');
    expect(ok.status).toBe(200);
    expect(ok.body.type).toBe('CommandListAnswer');
    const answers = ok.body.result!['answers'] as Array<{ type: string; result: Json }>;
    expect(answers.map((a) => a.type)).toEqual(['StatusAnswer', 'PlaylistAnswer']);
    expect(answers[1]!.result['songs']).toHaveLength(2);
    const failing = await post('command_list_begin\nclear\nplay 99\ncommand_list_end');
    expect(failing.status).toBe(400);
    expect(failing.body.ack).toMatchObject({ position: 1, command: 'play' });
  });

  it('answers unknown commands with a GenericAnswer that keeps every line', async () => {
    const res = await post('listall "Artist Two"');
    expect(res.status).toBe(200);
    expect(res.body.type).toBe('GenericAnswer');
    const entries = res.body.result!['entries'] as Json[];
    expect(entries).toContainEqual({ file: 'Artist Two/Red Album (2CD)/CD1/01 - Red Song 1.mp3' });
    expect(entries).toContainEqual({ directory: 'Artist Two/Red Album (2CD)' });
    const cmds = await post('commands');
    expect(cmds.body.type).toBe('CommandsAnswer');
    expect(cmds.body.result!['commands']).toContain('status');
  });

  it('gives typed answers for addid, outputs, stats, list, count and empty commands', async () => {
    await post('clear');
    const add = await post('addid "Artist One/Blue Album/01 - Song 1.flac"');
    expect(add.body).toMatchObject({ type: 'AddIdAnswer', result: { id: expect.stringMatching(/^\d+$/) } });
    const outputs = await post('outputs');
    expect(outputs.body.result!['outputs']).toEqual([{ id: '0', name: 'null-out', enabled: true, plugin: 'null', attributes: {} }]);
    const stats = await post('stats');
    expect(stats.body.result).toMatchObject({ songs: mpd.library.songs, albums: expect.any(Number), artists: expect.any(Number) });
    const play = await post('play');
    expect(play.body).toEqual({ success: true, type: 'Empty', result: {} });
    await post('stop');
  });

  it('runs the playerspecial routes', async () => {
    const search = await get('/api/v1/playerspecial/search?album=blue&sort=-track&range=0:1');
    expect(search.status).toBe(200);
    expect((search.body.result!['songs'] as Json[]).map((x) => x['file'])).toEqual(['Artist One/Blue Album/02 - Song 2.flac']);
    const findExact = await get('/api/v1/playerspecial/find?album=blue');
    expect(findExact.body.result!['songs']).toEqual([]);
    const find = await get('/api/v1/playerspecial/default/find?Album=Blue%20Album&artist=Artist%20One');
    expect(find.body.result!['songs']).toHaveLength(2);
    const quoted = await get(`/api/v1/playerspecial/find?title=${encodeURIComponent('Green Song "quoted"')}`);
    expect(quoted.body.result!['songs']).toHaveLength(1);
    const list = await get('/api/v1/playerspecial/list?listtype=album&artist=Artist%20Two');
    expect(list.body).toEqual({ success: true, type: 'ListAnswer', result: { tags: [{ tag: 'album', value: 'Red Album' }] } });
    const grouped = await get('/api/v1/playerspecial/list?listtype=album&group=date');
    expect((grouped.body.result!['tags'] as Json[])).toContainEqual({ tag: 'date', value: '' });
    const count = await get('/api/v1/playerspecial/count?album=Blue%20Album');
    expect(count.body).toEqual({ success: true, type: 'SongCountAnswer', result: { songCounts: [{ songs: 2, playtime: 6, group: null }] } });
    const counts = await get('/api/v1/playerspecial/count?genre=Rock&group=album');
    expect(counts.body.result!['songCounts']).toEqual([{ songs: 1, playtime: 2, group: { tag: 'album', value: 'Green Album' } }]);
    for (const name of ['status', 'stats', 'currentsong', 'listplaylists']) {
      const res = await get(`/api/v1/playerspecial/second/${name}`);
      expect(res.status, name).toBe(200);
    }
  });

  it('refuses bad playerspecial parameters with 400', async () => {
    expect((await get('/api/v1/playerspecial/search')).status).toBe(400);
    expect((await get('/api/v1/playerspecial/search?nosuchtag=x')).body.error?.message).toContain('nosuchtag');
    expect((await get('/api/v1/playerspecial/count')).status).toBe(400);
    expect((await get('/api/v1/playerspecial/count?album=a&artist=b')).status).toBe(400);
    expect((await get('/api/v1/playerspecial/list')).status).toBe(400);
    expect((await get('/api/v1/playerspecial/list?listtype=nosuch')).status).toBe(400);
    expect((await get('/api/v1/playerspecial/playlistinfo?pos=x')).status).toBe(400);
    expect((await get('/api/v1/playerspecial/search?album=a&range=zz')).status).toBe(400);
  });

  it('answers playlistinfo for the whole queue, a position and a range, pos winning', async () => {
    await post('command_list_begin\nclear\nadd "Artist One/Blue Album"\nadd "Artist Two"\ncommand_list_end');
    const all = await get('/api/v1/playerspecial/playlistinfo');
    expect(all.body.type).toBe('PlaylistAnswer');
    const songs = all.body.result!['songs'] as Array<{ pos: number; id: string; song: Json }>;
    expect(songs.map((x) => x.pos)).toEqual([0, 1, 2, 3]);
    expect(typeof songs[0]!.id).toBe('string');
    const one = await get('/api/v1/playerspecial/playlistinfo?pos=2');
    expect((one.body.result!['songs'] as Json[]).map((x) => x['pos'])).toEqual([2]);
    const range = await get('/api/v1/playerspecial/playlistinfo?range=1:3');
    expect((range.body.result!['songs'] as Json[]).map((x) => x['pos'])).toEqual([1, 2]);
    const both = await get('/api/v1/playerspecial/playlistinfo?range=0:3&pos=3');
    expect((both.body.result!['songs'] as Json[]).map((x) => x['pos'])).toEqual([3]);
    const current = await get('/api/v1/playerspecial/currentsong');
    expect(current.body).toEqual({ success: true, type: 'CurrentSongAnswer', result: { song: null } });
    await post('play 1');
    const playing = await get('/api/v1/playerspecial/currentsong');
    expect(playing.body.result!['song']).toMatchObject({ pos: 1, song: { file: 'Artist One/Blue Album/02 - Song 2.flac' } });
    await post('stop');
  });

  it('lists stored playlists', async () => {
    await post('save "gateway test list"');
    const res = await get('/api/v1/playerspecial/listplaylists');
    expect(res.body.type).toBe('PlaylistSummaryAnswer');
    expect(res.body.result!['playlist']).toContainEqual({ playlist: 'gateway test list', 'Last-Modified': expect.any(String) });
    await post('rm "gateway test list"');
  });

  it('lists the connections at /api/v1/info', async () => {
    const res = await get('/api/v1/info');
    expect(res.status).toBe(200);
    expect(res.body['connections' as keyof Envelope]).toEqual([
      { id: 'default', title: 'Test daemon' },
      { id: 'second', title: 'Second' },
    ]);
  });

  it('answers 404 for an unknown connection id and 426 for a GET without upgrade', async () => {
    expect((await post('status', '/api/v1/player/nosuch')).status).toBe(404);
    expect((await get('/api/v1/playerspecial/nosuch/status')).status).toBe(404);
    const plain = await get('/api/v1/player');
    expect(plain.status).toBe(426);
    expect(plain.body.type).toBe('Error');
  });

  it('keeps the pool bounded under concurrent requests', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, () => post('status')));
    expect(results.every((r) => r.status === 200)).toBe(true);
    const clients = await mpd.command('status');
    expect(clients).toContain('state:');
  });
});

describe('access to the gateway (player.access)', () => {
  let mpd: MpdInstance;
  beforeAll(async () => {
    mpd = await startMpd();
  });
  afterAll(() => mpd?.dispose());

  const paths = [
    ['POST', '/api/v1/player'],
    ['POST', '/api/v1/player/default'],
    ['GET', '/api/v1/playerspecial/status'],
    ['GET', '/api/v1/playerspecial/default/stats'],
    ['GET', '/api/v1/info'],
    ['GET', '/api/v1/cover/album?name=Blue%20Album'],
    ['GET', '/api/v1/booklet/file/Artist%20One%2FBlue%20Album'],
    ['POST', '/api/v1/cover/clearcache'],
  ] as const;

  it('user (default): 401 without a token, allowed with one (header or cookie)', async () => {
    const s = await startServer({ config: playerConfig(mpd) });
    try {
      await s.request('POST', '/api/v2/open/signup/register', { login: 'user', password: 'user-password' });
      const user = await s.login('user', 'user-password');
      for (const [method, path] of paths) {
        const body = method === 'POST' ? { command: 'status' } : undefined;
        const anon = await s.request(method, path, body, { unchecked: !path.startsWith('/api/v1/player') && !path.startsWith('/api/v1/info') });
        expect(anon.status, path).toBe(401);
        const ok = await s.request(method, path, body, { token: user, unchecked: true });
        expect(ok.status, path).toBe(200);
      }
      const viaCookie = await s.request('POST', '/api/v1/player', { command: 'status' }, { cookie: `service_auth=${user}` });
      expect(viaCookie.status).toBe(200);
    } finally {
      await s.stop();
    }
  });

  it('admin: 403 for a user, 200 for an admin', async () => {
    const s = await startServer({ config: playerConfig(mpd, { access: 'admin' }) });
    try {
      await s.request('POST', '/api/v2/open/signup/register', { login: 'user', password: 'user-password' });
      const user = await s.login('user', 'user-password');
      const admin = await s.login(ADMIN.login, ADMIN.password);
      for (const [method, path] of paths) {
        const body = method === 'POST' ? { command: 'status' } : undefined;
        expect((await s.request(method, path, body, { token: user, unchecked: true })).status, path).toBe(403);
        expect((await s.request(method, path, body, { token: admin, unchecked: true })).status, path).toBe(200);
      }
    } finally {
      await s.stop();
    }
  });

  it('open: no token needed', async () => {
    const s = await startServer({ config: playerConfig(mpd, { access: 'open' }) });
    try {
      for (const [method, path] of paths) {
        const body = method === 'POST' ? { command: 'status' } : undefined;
        expect((await s.request(method, path, body, { unchecked: true })).status, path).toBe(200);
      }
    } finally {
      await s.stop();
    }
  });

  it('disabled: every gateway route is 404', async () => {
    const s = await startServer({ config: { ...playerConfig(mpd), player: { enabled: false } } });
    try {
      const admin = await s.login(ADMIN.login, ADMIN.password);
      for (const [method, path] of paths) {
        const body = method === 'POST' ? { command: 'status' } : undefined;
        expect((await s.request(method, path, body, { token: admin, unchecked: true })).status, path).toBe(404);
      }
    } finally {
      await s.stop();
    }
  });
});
