// The gateway answers as the daemon does, against a real mpd whose library holds the
// troublesome tags and names (test/support/mpd-library.ts): a comment key `binary` is a
// key, not binary framing; readcomments keeps every key, repeated ones and
// `constructor`/`toString` included; an ACK inside command_list_ok_begin keeps the
// answers of the commands before it; `STATUS`, a leading space, form feed or vertical tab
// as separator and over-long lines never reach the daemon; names that are not valid
// UTF-8 come back addressable; errors under /api/v1 have the
// /api/v1 shape; tagtypes with arguments answer Empty; a socket whose daemon
// stops answering gets a frame and is closed.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMpd, type MpdInstance } from '../../support/mpd.js';
import { playerConfig } from '../../support/mpd-server.js';
import { openPlayerSocket, type Envelope } from '../../support/player-socket.js';
import { delay, eventually, freePort } from '../../support/system.js';
import { ADMIN, startServer, type Json, type TestServer } from '../../support/server.js';

type Answer = { type: string; result: Json };

const oddSong = 'Odd/Odd Album/01 - Odd.flac';

describe('the gateway passes what the daemon says faithfully', () => {
  let mpd: MpdInstance;
  let s: TestServer;
  let token: string;

  beforeAll(async () => {
    mpd = await startMpd();
    const unreachable = await freePort();
    s = await startServer({
      config: playerConfig(mpd, { connections: { gone: { host: '127.0.0.1', port: unreachable, timeout: '1 second' } } }),
    });
    token = await s.login(ADMIN.login, ADMIN.password);
  });
  afterAll(async () => {
    await s?.stop();
    await mpd?.dispose();
  });

  const post = (command: string, path = '/api/v1/player') => s.request<Envelope>('POST', path, { command }, { token });
  const postRaw = (bytes: Buffer) => s.request<Envelope>('POST', '/api/v1/player', { commandRaw: bytes.toString('base64') }, { token });

  it('reads a comment key named binary as a value; binary data only follows albumart and readpicture, also in command lists', async () => {
    const res = await post(`readcomments "${oddSong}"`);
    expect(res.status).toBe(200);
    expect(res.body.type).toBe('ReadCommentsAnswer');
    expect((res.body.result!['values'] as Json)['binary']).toBe('5');

    const list = await post(`command_list_ok_begin\nreadcomments "${oddSong}"\nalbumart "${oddSong}" 0\nreadcomments "${oddSong}"\ncommand_list_end`);
    expect(list.status).toBe(200);
    const answers = list.body.result!['answers'] as Answer[];
    expect(answers.map((a) => a.type)).toEqual(['ReadCommentsAnswer', 'BinaryAnswer', 'ReadCommentsAnswer']);
    const picture = answers[1]!.result as { binary: number; data: string; size: number };
    expect(picture.binary).toBeGreaterThan(0);
    expect((await sharp(Buffer.from(picture.data, 'base64')).metadata()).width).toBe(500);

    const plain = await post(`command_list_begin\nreadcomments "${oddSong}"\ncommand_list_end`);
    expect(plain.status).toBe(200);
    expect(plain.body.result!['values']).toMatchObject({ binary: '5' });
    const plainPicture = await post(`command_list_begin\nping\nalbumart "${oddSong}" 0\ncommand_list_end`);
    expect(plainPicture.status).toBe(200);
    expect(plainPicture.body.type).toBe('BinaryAnswer');
    expect((plainPicture.body.result as { binary: number }).binary).toBe(picture.binary);
  });

  it('keeps every readcomments key and value: repeats as arrays, keys named like object properties', async () => {
    const res = await post(`readcomments "${oddSong}"`);
    expect(res.body.result!['values']).toEqual({
      TITLE: 'Odd Song',
      ARTIST: 'Artist Seven',
      ALBUM: 'Odd Album',
      TRACKNUMBER: '1',
      binary: '5',
      constructor: 'built',
      toString: 'text',
      MOOD: ['calm', 'bright'],
    });
  });

  it('answers an ACK inside command_list_ok_begin with the ACK and the answers of the commands before it', async () => {
    const res = await post('command_list_ok_begin\nping\nstatus\nplaylistinfo 999\nping\ncommand_list_end');
    expect(res.status).toBe(400);
    expect(res.body.type).toBe('Ack');
    expect(res.body.ack).toMatchObject({ position: 2, command: 'playlistinfo', code: { name: 'invalid_argument' } });
    const answers = (res.body.result as { answers: Answer[] }).answers;
    expect(answers.map((a) => a.type)).toEqual(['Empty', 'StatusAnswer']);
    expect(answers[1]!.result).toMatchObject({ state: expect.any(String) });
  });

  it('refuses at the door what the daemon would not read as a command: 400 at once', async () => {
    const long = `find "${'a'.repeat(70_000)}"`;
    const bad = ['STATUS', ' status', 'Status', 'idle\fplayer', 'idle\vplayer', 'status\f', long, `command_list_begin\nping\nidle\fplayer\ncommand_list_end`, `command_list_begin\n status\ncommand_list_end`];
    for (const command of bad) {
      const started = Date.now();
      const res = await post(command);
      expect(res.status, JSON.stringify(command.slice(0, 40))).toBe(400);
      expect(res.body).toEqual({ success: false, type: 'Error', error: { message: expect.any(String) } });
      expect(Date.now() - started).toBeLessThan(1000);
    }
    // a line of exactly what the daemon reads still goes through (its ACK says the filter is wrong)
    const longest = await post(`find "${'a'.repeat(8191 - 'find ""'.length)}"`);
    expect(longest.body.type).toBe('Ack');
    expect((await post('status\tx')).body.type).toBe('Ack');
  });

  it('carries names that are not valid UTF-8 as their bytes (fileRaw) and accepts them back as commandRaw', async () => {
    const name = mpd.library.latin1Name;
    const ls = await post('lsinfo "Odd/Odd Album"');
    expect(ls.status).toBe(200);
    const songs = (ls.body.result!['infos'] as Array<{ SongInfo?: { song: { file: string; fileRaw?: string } } }>).map((i) => i.SongInfo!.song);
    const odd = songs.find((x) => x.fileRaw !== undefined)!;
    expect(Buffer.from(odd.fileRaw!, 'base64')).toEqual(name);
    expect(odd.file).toBe('Odd/Odd Album/02 - caf\uFFFD.flac');
    expect(songs.find((x) => x.file === oddSong)!.fileRaw).toBeUndefined();

    await post('clear');
    const added = await postRaw(Buffer.concat([Buffer.from('add "'), name, Buffer.from('"')]));
    expect(added.status).toBe(200);
    expect(added.body.type).toBe('Empty');
    const queue = await post('playlistinfo');
    const queued = (queue.body.result!['songs'] as Array<{ song: { fileRaw?: string } }>)[0]!.song;
    expect(Buffer.from(queued.fileRaw!, 'base64')).toEqual(name);
    const found = await s.request<Envelope>('GET', '/api/v1/playerspecial/search?album=Odd%20Album', undefined, { token });
    expect((found.body.result!['songs'] as Array<{ fileRaw?: string }>).filter((x) => x.fileRaw === name.toString('base64'))).toHaveLength(1);
    await post('clear');

    // the same checks apply to the bytes
    expect((await postRaw(Buffer.from('idle\fplayer'))).status).toBe(400);
    expect((await postRaw(Buffer.from('status\nkill'))).status).toBe(400);
    expect((await s.request('POST', '/api/v1/player', { command: 'status', commandRaw: 'c3RhdHVz' }, { token })).status).toBe(400);
  });

  // Regression: listplaylist and sticker find gave names that are not valid UTF-8 with
  // U+FFFD only, so such a song could not be addressed again from their answers.
  it('carries names that are not valid UTF-8 in listplaylist (itemsRaw) and sticker find (fileRaw)', async () => {
    const name = mpd.library.latin1Name;
    const withName = (before: string, after = '') => Buffer.concat([Buffer.from(before), name, Buffer.from(after)]);
    await post('playlistclear "odd names"');
    expect((await post(`playlistadd "odd names" "${oddSong}"`)).status).toBe(200);
    expect((await postRaw(withName('playlistadd "odd names" "', '"'))).status).toBe(200);
    try {
      const list = await post('listplaylist "odd names"');
      expect(list.body).toEqual({
        success: true,
        type: 'StoredPlaylistAnswer',
        result: { playlist: { items: [oddSong, 'Odd/Odd Album/02 - caf\uFFFD.flac'], itemsRaw: [null, name.toString('base64')] } },
      });
      // every name valid UTF-8: no itemsRaw
      expect((await post('playlistdelete "odd names" 1')).status).toBe(200);
      expect((await post('listplaylist "odd names"')).body.result).toEqual({ playlist: { items: [oddSong] } });
    } finally {
      await post('rm "odd names"');
    }

    expect((await postRaw(withName('sticker set song "', '" rating 5'))).status).toBe(200);
    expect((await post(`sticker set song "${oddSong}" rating 4`)).status).toBe(200);
    try {
      const found = await post('sticker find song "Odd" rating');
      expect(found.body.type).toBe('StickerFindAnswer');
      const stickers = found.body.result!['stickers'] as Array<{ file: string; fileRaw?: string; sticker: unknown }>;
      expect(stickers).toHaveLength(2);
      expect(stickers.find((x) => x.file === oddSong)).toEqual({ file: oddSong, sticker: { name: 'rating', value: '4' } });
      expect(stickers.find((x) => x.file !== oddSong)).toEqual({
        file: 'Odd/Odd Album/02 - caf\uFFFD.flac',
        fileRaw: name.toString('base64'),
        sticker: { name: 'rating', value: '5' },
      });
    } finally {
      await postRaw(withName('sticker delete song "', '"'));
      await post(`sticker delete song "${oddSong}"`);
    }
  });

  it('answers tagtypes clear, all, enable and disable with Empty', async () => {
    for (const command of ['tagtypes clear', 'tagtypes all', 'tagtypes disable Artist', 'tagtypes enable Artist']) {
      const res = await post(command);
      expect(res.status, command).toBe(200);
      expect(res.body, command).toEqual({ success: true, type: 'Empty', result: {} });
    }
  });

  it('answers every error under /api/v1 with {success: false, type: "Error", error: {message}}', async () => {
    const envelope = { success: false, type: 'Error', error: { message: expect.any(String) } };
    const cases: Array<[string, Promise<{ status: number; body: unknown }>, number]> = [
      ['missing command', s.request('POST', '/api/v1/player', {}, { token }), 400],
      ['unknown field', s.request('POST', '/api/v1/player', { cmd: 'status' }, { token }), 400],
      ['invalid JSON', s.request('POST', '/api/v1/player', undefined, { token, raw: '{"command":', headers: { 'Content-Type': 'application/json' } }), 400],
      ['bad range', s.request('GET', '/api/v1/playerspecial/playlistinfo?range=x', undefined, { token }), 400],
      ['bad pos', s.request('GET', '/api/v1/playerspecial/playlistinfo?pos=-1', undefined, { token }), 400],
      ['unknown id', s.request('POST', '/api/v1/player/nope', { command: 'status' }, { token }), 404],
      ['no token', s.request('POST', '/api/v1/player', { command: 'status' }), 401],
      ['unreachable daemon', s.request('POST', '/api/v1/player/gone', { command: 'status' }, { token }), 502],
      ['cover, unreachable daemon', s.request('GET', '/api/v1/cover/gone/album?name=Blue%20Album', undefined, { token, unchecked: true }), 502],
      ['booklet, unreachable daemon', s.request('GET', '/api/v1/booklet/gone/album?name=Blue%20Album', undefined, { token, unchecked: true }), 502],
      ['unknown route', s.request('GET', '/api/v1/nothing-here', undefined, { token, unchecked: true }), 404],
    ];
    for (const [what, pending, status] of cases) {
      const res = await pending;
      expect(res.status, what).toBe(status);
      expect(res.body, what).toEqual(envelope);
    }
  });

  it('accepts commandRaw in WebSocket frames; a refused frame is answered after the frames before it', async () => {
    const { ws, frames, next } = await openPlayerSocket(`${s.url.replace('http', 'ws')}/api/v1/player`, { 'Service-Auth': token });
    try {
      const command = Buffer.concat([Buffer.from('readcomments "'), mpd.library.latin1Name, Buffer.from('"')]);
      ws.send(JSON.stringify({ commandRaw: command.toString('base64') }));
      ws.send(JSON.stringify({ commandRaw: Buffer.from('STATUS').toString('base64') }));
      await next('Error', 0);
      expect(frames[0]).toMatchObject({ success: true, type: 'ReadCommentsAnswer', result: { values: { TITLE: 'Latin Song' } } });
      expect(frames[1]).toMatchObject({ success: false, type: 'Error' });
    } finally {
      ws.terminate();
    }
  });

  // A flood of frames must not grow a socket's queue of waiting commands without end.
  // Regression: the Error for a frame beyond the bound went out at once, before the
  // answers of the frames sent earlier, so a client took it for the answer of another
  // command. Each frame here names itself (`bogus<i>`, whose ACK quotes it).
  it('refuses frames beyond the bound of waiting commands and answers every frame in the order sent', async () => {
    const { ws, frames } = await openPlayerSocket(`${s.url.replace('http', 'ws')}/api/v1/player`, { 'Service-Auth': token });
    try {
      const sent = 400;
      for (let i = 0; i < sent; i++) ws.send(JSON.stringify({ command: `bogus${i}` }));
      await eventually(() => frames.length >= sent);
      await delay(50);
      expect(frames).toHaveLength(sent);
      const seen = frames.slice(0, sent).map((f, i) =>
        f.type === 'Ack' && (f.ack as { message: string }).message === `unknown command "bogus${i}"` ? 'answer' : f.type === 'Error' && /Too many commands are waiting/.test(f.error!.message) ? 'too many' : JSON.stringify(f),
      );
      expect(seen.filter((x) => x !== 'answer' && x !== 'too many')).toEqual([]);
      expect(seen.slice(0, 64)).toEqual(Array.from({ length: 64 }, () => 'answer'));
      expect(seen.filter((x) => x === 'too many').length).toBeGreaterThan(0);
    } finally {
      ws.terminate();
    }
  });

  it('sends an Error frame and closes a WebSocket with a reason when its daemon stops answering', async () => {
    const { ws, frames, closed } = await openPlayerSocket(`${s.url.replace('http', 'ws')}/api/v1/player`, { 'Service-Auth': token });
    const pid = mpd.pid()!;
    process.kill(pid, 'SIGSTOP');
    try {
      ws.send(JSON.stringify({ command: 'status' }));
      const started = Date.now();
      const end = await Promise.race([closed, new Promise<undefined>((r) => setTimeout(() => r(undefined), 8000))]);
      expect(end, 'the socket closes').toBeDefined();
      expect(Date.now() - started).toBeLessThan(6000);
      expect(end!.code).toBe(1011);
      expect(end!.reason).toMatch(/did not answer/);
      expect(frames.at(-1)).toEqual({ success: false, type: 'Error', error: { message: expect.stringMatching(/did not answer within 3000 ms/) } });
    } finally {
      process.kill(pid, 'SIGCONT');
      ws.terminate();
    }
  });
});
