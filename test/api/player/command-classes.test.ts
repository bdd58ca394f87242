// Not every caller allowed to use the player may send every daemon command (a
// user must not `kill` the daemon, make it fetch URLs with `add http://...`,
// switch outputs, run `update` or mount storage). Users may play, edit the queue,
// read and edit the library and stored playlists; everything that reaches beyond
// the music (URLs with a scheme, outputs, update/rescan, mounts, config, kill,
// password, client messages, unknown commands) is for admins: 403 with
// `{success: false, type: "Error", error: {message}}`, on the HTTP command route
// (any body framing), inside command lists, and on the WebSocket.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startMpd, type MpdInstance } from '../../support/mpd.js';
import { playerConfig } from '../../support/mpd-server.js';
import { openPlayerSocket as openSocket, type Envelope } from '../../support/player-socket.js';
import { ADMIN, startServer, type TestServer } from '../../support/server.js';
import { delay } from '../../support/system.js';

/** POST with a chunked body (no Content-Length). */
const chunkedPost = (base: string, path: string, body: unknown, token?: string): Promise<{ status: number; body: Envelope }> =>
  new Promise((resolve, reject) => {
    const u = new URL(base);
    const headers: Record<string, string> = { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' };
    if (token) headers['Service-Auth'] = token;
    const req = httpRequest({ host: u.hostname, port: u.port, path, method: 'POST', headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Envelope }));
    });
    req.on('error', reject);
    req.write(JSON.stringify(body));
    req.end();
  });

const adminOnly = [
  'kill',
  'add http://127.0.0.1:9/stream',
  'add "https://example.org/a.mp3"',
  'addid "http://127.0.0.1:9/x" 0',
  'load "http://127.0.0.1:9/list.m3u"',
  'playlistadd mine "http://127.0.0.1:9/x"',
  'add "h\\ttp://127.0.0.1:9/x"',
  'add "nfs://server/share/x.flac"',
  'listplaylist "http://127.0.0.1:9/list.m3u"',
  'albumart "http://127.0.0.1:9/x.mp3" 0',
  'readpicture "http://127.0.0.1:9/x.mp3" 0',
  'lsinfo "smb://server/share"',
  'enableoutput 0',
  'disableoutput 0',
  'toggleoutput 0',
  'outputset 0 dop 1',
  'moveoutput null-out',
  'update',
  'rescan "Artist One"',
  'mount usb "nfs://server/share"',
  'unmount usb',
  'listmounts',
  'listneighbors',
  'config',
  'password "x"',
  'binarylimit 64',
  'protocol',
  'close',
  'subscribe chan',
  'unsubscribe chan',
  'sendmessage chan hello',
  'readmessages',
  'channels',
  'tagtypes clear',
  'tagtypes disable Artist',
  'partition other',
  'newpartition other',
  'delpartition other',
  'frobnicate',
];

const userCommands = [
  'status',
  'stats',
  'currentsong',
  'clearerror',
  'ping',
  'play',
  'stop',
  'setvol 40',
  'random 0',
  'repeat 0',
  'consume 0',
  'single 0',
  'crossfade 0',
  'clear',
  'add "Artist One/Blue Album"',
  'addid "Artist One/Blue Album/01 - Song 1.flac"',
  'findadd album "Green Album"',
  'playlistinfo',
  'shuffle',
  'deleteid 1',
  'lsinfo "Artist One"',
  'listall',
  'find album "Blue Album"',
  'search "(album contains \'blue\')"',
  'list album',
  'count genre Rock',
  'outputs',
  'commands',
  'tagtypes',
  'urlhandlers',
  'save "classes test"',
  'load "classes test"',
  'playlistadd "classes test" "Artist One/Blue Album/01 - Song 1.flac"',
  'listplaylists',
  'listplaylistinfo "classes test"',
  'rm "classes test"',
];

describe('command classes over HTTP', () => {
  let mpd: MpdInstance;
  let s: TestServer;
  let user: string;
  let admin: string;

  beforeAll(async () => {
    mpd = await startMpd();
    s = await startServer({ config: playerConfig(mpd) });
    await s.request('POST', '/api/v2/open/signup/register', { login: 'user', password: 'user-password' });
    user = await s.login('user', 'user-password');
    admin = await s.login(ADMIN.login, ADMIN.password);
  });
  afterAll(async () => {
    await s?.stop();
    await mpd?.dispose();
  });

  const post = (command: string, token: string, path = '/api/v1/player') => s.request<Envelope>('POST', path, { command }, { token });

  it('refuses admin-only commands to a user with 403 type Error, the daemon untouched', async () => {
    await mpd.command('clear');
    for (const command of adminOnly) {
      const res = await post(command, user);
      expect(res.status, command).toBe(403);
      expect(res.body, command).toEqual({ success: false, type: 'Error', error: { message: expect.stringMatching(/admin/i) } });
    }
    await delay(200);
    expect(await mpd.command('ping')).toBe('OK\n');
    expect(await mpd.command('playlistinfo')).toBe('OK\n');
    expect(await mpd.command('outputs')).toContain('outputenabled: 1');
  });

  it('refuses them in a chunked request body as well', async () => {
    for (const command of ['kill', 'add http://127.0.0.1:9/x', 'disableoutput 0', 'update']) {
      const res = await chunkedPost(s.url, '/api/v1/player/default', { command }, user);
      expect(res.status, command).toBe(403);
      expect(res.body).toMatchObject({ success: false, type: 'Error' });
    }
    expect(await mpd.command('ping')).toBe('OK\n');
  });

  it('checks every command inside a command list; nothing of a refused list runs', async () => {
    await mpd.command('clear');
    const res = await post('command_list_begin\nadd "Artist One/Blue Album"\nkill\ncommand_list_end', user);
    expect(res.status).toBe(403);
    const url = await post('command_list_ok_begin\nclear\nadd "http://127.0.0.1:9/x"\ncommand_list_end', user);
    expect(url.status).toBe(403);
    expect(await mpd.command('playlistinfo')).toBe('OK\n');
    const fine = await post('command_list_begin\nadd "Artist One/Blue Album"\nclear\ncommand_list_end', user);
    expect(fine.status).toBe(200);
  });

  it('lets a user play, edit the queue, read the library and keep stored playlists', async () => {
    for (const command of userCommands) {
      const res = await post(command, user);
      expect(res.status === 200 || res.body.type === 'Ack', `${command}: ${JSON.stringify(res.body)}`).toBe(true);
    }
    await post('stop', user);
  });

  it('lets an admin send them', async () => {
    for (const command of ['update', 'disableoutput 0', 'enableoutput 0', 'config', 'listmounts']) {
      const res = await post(command, admin);
      expect(res.status === 200 || res.body.type === 'Ack', `${command}: ${JSON.stringify(res.body)}`).toBe(true);
    }
    expect((await chunkedPost(s.url, '/api/v1/player', { command: 'update' }, admin)).status).toBe(200);
  });
});

describe('command classes with player.access = open', () => {
  let mpd: MpdInstance;
  let s: TestServer;

  beforeAll(async () => {
    mpd = await startMpd();
    s = await startServer({ config: playerConfig(mpd, { access: 'open' }) });
  });
  afterAll(async () => {
    await s?.stop();
    await mpd?.dispose();
  });

  it('anonymous callers are users, never admins', async () => {
    for (const command of ['kill', 'update', 'disableoutput 0', 'add http://127.0.0.1:9/x']) {
      const res = await s.request<Envelope>('POST', '/api/v1/player', { command });
      expect(res.status, command).toBe(403);
      expect((await chunkedPost(s.url, '/api/v1/player', { command })).status, command).toBe(403);
    }
    expect((await s.request<Envelope>('POST', '/api/v1/player', { command: 'status' })).status).toBe(200);
    expect(await mpd.command('ping')).toBe('OK\n');
  });

  it('a signed-in admin stays an admin', async () => {
    const admin = await s.login(ADMIN.login, ADMIN.password);
    expect((await s.request<Envelope>('POST', '/api/v1/player', { command: 'update' }, { token: admin })).status).toBe(200);
  });

  it("a page of another origin gets no open WebSocket, neither with an admin's cookie nor as an anonymous user", async () => {
    const admin = await s.login(ADMIN.login, ADMIN.password);
    for (const headers of <Record<string, string>[]>[{ Cookie: `service_auth=${admin}`, Origin: 'http://evil.example' }, { Origin: 'http://evil.example' }]) {
      await expect(openSocket(s.url.replace('http', 'ws') + '/api/v1/player', headers)).rejects.toMatchObject({ status: 403 });
    }
    const own = await openSocket(s.url.replace('http', 'ws') + '/api/v1/player', { Cookie: `service_auth=${admin}` });
    try {
      own.ws.send(JSON.stringify({ command: 'update' }));
      expect((await own.next('JobIdAnswer', 0)).success).toBe(true);
    } finally {
      own.ws.close();
    }
  });

  it('refuses admin-only frames of an anonymous WebSocket with an Error frame; the socket stays open', async () => {
    const c = await openSocket(s.url.replace('http', 'ws') + '/api/v1/player');
    try {
      c.ws.send(JSON.stringify({ command: 'kill' }));
      c.ws.send(JSON.stringify({ command: 'command_list_begin\nstatus\ndisableoutput 0\ncommand_list_end' }));
      c.ws.send(JSON.stringify({ command: 'status' }));
      await c.next('StatusAnswer', 0);
      const errors = c.frames.filter((f) => f.type === 'Error');
      expect(errors).toHaveLength(2);
      expect(errors[0]!.error?.message).toMatch(/admin/i);
      expect(c.ws.readyState).toBe(WebSocket.OPEN);
      expect(await mpd.command('ping')).toBe('OK\n');
    } finally {
      c.ws.close();
    }
  });
});

describe('command classes on the WebSocket', () => {
  let mpd: MpdInstance;
  let s: TestServer;
  let user: string;
  let admin: string;
  let wsUrl: string;

  beforeAll(async () => {
    mpd = await startMpd();
    s = await startServer({ config: playerConfig(mpd) });
    await s.request('POST', '/api/v2/open/signup/register', { login: 'user', password: 'user-password' });
    user = await s.login('user', 'user-password');
    admin = await s.login(ADMIN.login, ADMIN.password);
    wsUrl = s.url.replace('http', 'ws') + '/api/v1/player';
  });
  afterAll(async () => {
    await s?.stop();
    await mpd?.dispose();
  });

  it("refuses a user's admin-only frames and answers an admin's", async () => {
    const u = await openSocket(wsUrl, { 'Service-Auth': user });
    const a = await openSocket(wsUrl, { 'Service-Auth': admin });
    try {
      for (const command of ['kill', 'update', 'add http://127.0.0.1:9/x', 'enableoutput 0']) u.ws.send(JSON.stringify({ command }));
      u.ws.send(JSON.stringify({ command: 'stats' }));
      await u.next('StatsAnswer', 0);
      expect(u.frames.filter((f) => f.type === 'Error')).toHaveLength(4);
      expect(await mpd.command('ping')).toBe('OK\n');
      a.ws.send(JSON.stringify({ command: 'update' }));
      expect((await a.next('JobIdAnswer', 0)).success).toBe(true);
    } finally {
      u.ws.close();
      a.ws.close();
    }
  });
});
