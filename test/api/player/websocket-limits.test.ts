// Regression: player WebSockets were not counted, so one user (or one anonymous
// client) could open sockets until the daemon's `max_connections` was used up and
// nobody else could play. Each socket now counts against `limits.websockets-per-user`
// (keyed by account, or by client address for anonymous access) and against
// `limits.websockets` in all; beyond either limit the upgrade is refused with
// HTTP 429, and a closed socket frees its place.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startMpd, type MpdInstance } from '../../support/mpd.js';
import { playerConfig } from '../../support/mpd-server.js';
import { ADMIN, startServer, type TestServer } from '../../support/server.js';
import { delay } from '../../support/system.js';

/** Opens a socket; resolves with it, or with the HTTP status of the refused upgrade. */
const open = (url: string, headers: Record<string, string> = {}): Promise<WebSocket | number> =>
  new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => {
      res.resume();
      resolve(res.statusCode ?? -1);
    });
    ws.once('error', reject);
  });

const closeAll = async (sockets: Array<WebSocket | number>): Promise<void> => {
  for (const s of sockets) {
    if (typeof s === 'number') continue;
    await new Promise<void>((r) => {
      if (s.readyState === WebSocket.CLOSED) return r();
      s.once('close', () => r());
      s.close();
    });
  }
  // the server counts a socket until its close handler ran
  await delay(50);
};

describe('player WebSocket limits', () => {
  let mpd: MpdInstance;
  beforeAll(async () => {
    mpd = await startMpd();
  });
  afterAll(() => mpd?.dispose());

  describe('per user and in all (player.access = user)', () => {
    let s: TestServer;
    let wsUrl: string;
    const tokens: string[] = [];

    beforeAll(async () => {
      s = await startServer({ config: { ...playerConfig(mpd), limits: { 'websockets-per-user': 2, websockets: 3 } } });
      wsUrl = s.url.replace('http', 'ws') + '/api/v1/player';
      for (const login of ['alice', 'bob', 'carol']) {
        await s.request('POST', '/api/v2/open/signup/register', { login, password: `${login}-password` });
        tokens.push(await s.login(login, `${login}-password`));
      }
    });
    afterAll(() => s?.stop());

    it('refuses a user\'s socket beyond websockets-per-user with 429, and takes it again after one closed', async () => {
      const [alice] = tokens as [string];
      const first = await open(wsUrl, { 'Service-Auth': alice });
      const second = await open(`${wsUrl}/default`, { 'Service-Auth': alice });
      expect(typeof first).toBe('object');
      expect(typeof second).toBe('object');
      expect(await open(wsUrl, { 'Service-Auth': alice })).toBe(429);
      await closeAll([first]);
      const again = await open(wsUrl, { 'Service-Auth': alice });
      expect(typeof again).toBe('object');
      await closeAll([second, again]);
    });

    it('refuses any socket beyond websockets in all with 429', async () => {
      const [alice, bob, carol] = tokens as [string, string, string];
      const open3 = [await open(wsUrl, { 'Service-Auth': alice }), await open(wsUrl, { 'Service-Auth': alice }), await open(wsUrl, { 'Service-Auth': bob })];
      expect(open3.every((x) => typeof x === 'object')).toBe(true);
      expect(await open(wsUrl, { 'Service-Auth': carol })).toBe(429);
      const admin = await s.login(ADMIN.login, ADMIN.password);
      expect(await open(wsUrl, { 'Service-Auth': admin })).toBe(429);
      await closeAll(open3);
      const later = await open(wsUrl, { 'Service-Auth': carol });
      expect(typeof later).toBe('object');
      await closeAll([later]);
    });

    it('counts sockets still being opened (parallel upgrades cannot overshoot)', async () => {
      const [, bob] = tokens as [string, string];
      const all = await Promise.all(Array.from({ length: 6 }, () => open(wsUrl, { 'Service-Auth': bob })));
      expect(all.filter((x) => typeof x === 'object')).toHaveLength(2);
      expect(all.filter((x) => x === 429)).toHaveLength(4);
      await closeAll(all);
    });
  });

  it('keys anonymous sockets by client address (player.access = open)', async () => {
    const s = await startServer({ config: { ...playerConfig(mpd, { access: 'open' }), limits: { 'websockets-per-user': 1, websockets: 5 } } });
    try {
      const wsUrl = s.url.replace('http', 'ws') + '/api/v1/player';
      const first = await open(wsUrl);
      expect(typeof first).toBe('object');
      expect(await open(wsUrl)).toBe(429);
      await closeAll([first]);
      const again = await open(wsUrl);
      expect(typeof again).toBe('object');
      await closeAll([again]);
    } finally {
      await s.stop();
    }
  });
});
