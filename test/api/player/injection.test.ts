// Regression: the album name of the cover and booklet routes went into
// `find album "<name>"` with its line breaks, so `name=x%0Akill` stopped the
// daemon and `name=x%0Aadd "http://..."` made it fetch any URL. No argument that
// reaches the daemon may hold a line break, CR or NUL, on any route: such a
// request is refused with 400 before anything is sent.
import { createServer, type Server } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMpd, type MpdInstance } from '../../support/mpd.js';
import { playerConfig } from '../../support/mpd-server.js';
import { startServer, type TestServer } from '../../support/server.js';
import { delay } from '../../support/system.js';

const enc = (p: string) => p.split('/').map(encodeURIComponent).join('/');

describe('no line break, CR or NUL reaches the daemon', () => {
  let mpd: MpdInstance;
  let s: TestServer;
  let probe: Server;
  let probeUrl: string;
  const probed: string[] = [];

  beforeAll(async () => {
    mpd = await startMpd();
    s = await startServer({ config: playerConfig(mpd, { access: 'open' }) });
    probe = createServer((req, res) => {
      probed.push(req.url ?? '');
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
    probeUrl = `http://127.0.0.1:${(probe.address() as { port: number }).port}`;
  });
  afterEach(async () => {
    // a test that killed the daemon on broken code must not take the next ones with it
    const alive = await mpd.command('ping').then(
      () => true,
      () => false,
    );
    if (!alive) {
      await mpd.stop();
      await mpd.start();
    }
  });
  afterAll(async () => {
    await s?.stop();
    await mpd?.dispose();
    probe?.close();
  });

  /** true when the daemon still answers (it takes a moment to exit after `kill`) */
  const daemonAlive = async (): Promise<boolean> => {
    await delay(200);
    return mpd.command('ping').then(
      () => true,
      () => false,
    );
  };

  const get = async (path: string) => {
    const res = await fetch(s.url + path);
    return { status: res.status, text: await res.text() };
  };

  it.each([
    ['cover album, LF', '/api/v1/cover/album?name=x%0Akill%0A'],
    ['booklet album, LF', '/api/v1/booklet/album?name=x%0Akill%0A'],
    ['cover album with id, CR', '/api/v1/cover/default/album?name=x%0Dkill'],
    ['booklet album with id, NUL', '/api/v1/booklet/default/album?name=x%00%0Akill%0A'],
    ['cover album, CRLF', '/api/v1/cover/album?name=x%0D%0Akill%0D%0A'],
  ])('refuses a %s in the album name with 400; the daemon lives on', async (_label, path) => {
    const res = await get(path);
    expect({ status: res.status, daemonAlive: await daemonAlive() }).toEqual({ status: 400, daemonAlive: true });
  });

  it('refuses a line break in the album name that would make the daemon fetch a URL', async () => {
    await mpd.command('clear');
    const res = await get(`/api/v1/cover/album?name=${encodeURIComponent(`x\nadd ${probeUrl}/fetched\nload ${probeUrl}/list.m3u\n`)}`);
    await delay(500);
    expect({ status: res.status, fetched: probed, queue: await mpd.command('playlistinfo') }).toEqual({ status: 400, fetched: [], queue: 'OK\n' });
  });

  it.each([
    ['cover file', `/api/v1/cover/file/${enc('Artist One/Blue Album/x\nkill')}`],
    ['booklet file with id', `/api/v1/booklet/default/file/${enc('Artist One/x\rkill')}`],
    ['cover file, NUL', `/api/v1/cover/file/${enc('Artist One/x\0kill')}`],
  ])('refuses a line break, CR or NUL in a %s path with 400', async (_label, path) => {
    const res = await get(path);
    expect({ status: res.status, daemonAlive: await daemonAlive() }).toEqual({ status: 400, daemonAlive: true });
  });

  it.each([
    ['search', '/api/v1/playerspecial/search?any=x%0Akill'],
    ['find', '/api/v1/playerspecial/find?album=Blue%0Akill'],
    ['find with id and CR', '/api/v1/playerspecial/default/find?album=Blue%0Dkill'],
    ['list', '/api/v1/playerspecial/list?listtype=album&artist=x%0Akill'],
    ['count', '/api/v1/playerspecial/count?album=x%0Akill'],
    ['search, NUL', '/api/v1/playerspecial/search?title=x%00'],
  ])('refuses a line break, CR or NUL in a playerspecial %s parameter with 400 type Error', async (_label, path) => {
    const res = await get(path);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toMatchObject({ success: false, type: 'Error', error: { message: expect.any(String) } });
    expect(await daemonAlive()).toBe(true);
  });

  it('refuses a line break in a POSTed command (outside a command list) and inside a list line', async () => {
    for (const command of ['status\nkill', 'status\r\nkill', 'find album "x\nkill"', 'command_list_begin\nstatus\r\nkill\ncommand_list_end']) {
      const res = await s.request('POST', '/api/v1/player', { command });
      expect(res.status, JSON.stringify(command)).toBe(400);
    }
    expect(await daemonAlive()).toBe(true);
  });
});
