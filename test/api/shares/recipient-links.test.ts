// What a recipient's link says before and when it fails: the detail route names
// why a share cannot be opened (unknown, unpublished, expired, views used up), and
// the page at /app/open/<pid> carries Open Graph tags for chat-app previews that
// never count a view and never show anything of a share that cannot be opened.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../server/common/clock.js';
import { fetchRaw, shareDetail, shareWithFiles } from '../../support/share-fixtures.js';
import { ADMIN, startServer, type TestServer } from '../../support/server.js';

const DAY = 86_400_000;

/** The Open Graph tags of a page: property → content, as a scraper reads them (entities decoded). */
const ogTags = (html: string): Record<string, string> => {
  const decode = (v: string) =>
    v.replace(/&(amp|lt|gt|quot|#39);/g, (_m, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]!);
  const tags: Record<string, string> = {};
  for (const m of html.matchAll(/<meta property="(og:[a-z_]+)" content="([^"]*)" \/>/g)) tags[m[1]!] = decode(m[2]!);
  return tags;
};

describe('links of public shares', () => {
  let s: TestServer;
  let token: string;
  const clock = manualClock(Date.UTC(2030, 2, 12, 9, 30));
  beforeAll(async () => {
    s = await startServer({ clock, config: { webapp: { 'app-name': 'Pier Test' } } });
    token = await s.login(ADMIN.login, ADMIN.password);
  });
  afterAll(() => s.stop());

  const open = (pid: string, headers: Record<string, string> = {}) => s.request('GET', `/api/v2/open/share/${pid}`, undefined, { headers });
  const page = async (pid: string, headers: Record<string, string> = {}) => {
    const res = await fetchRaw(s, `/app/open/${pid}`, { headers });
    expect(res.status).toBe(200);
    return res.text();
  };
  const views = async (id: string) => (await shareDetail(s, token, id)).publishInfo!.views;
  const publish = async (_s: TestServer, owner: string, id: string, reuseId = true): Promise<string> => {
    const res = await s.request<{ success: boolean }>('POST', `/api/v2/sec/share/${id}/publish`, { reuseId }, { token: owner });
    expect(res.body.success, res.text).toBe(true);
    return (await shareDetail(s, owner, id)).publishInfo!.id;
  };

  describe('the reason of a 404 on the detail route', () => {
    it('says unknown, unpublished, expired and used-up apart', async () => {
      expect((await open('no-such-publish-id')).body).toMatchObject({ success: false, code: 'share.unknown' });

      const used = await shareWithFiles(s, token, [{ name: 'a.txt', content: 'a' }], { maxViews: 1 });
      const usedPid = await publish(s, token, used.id);
      expect((await open(usedPid)).status).toBe(200);
      const usedUp = await open(usedPid);
      expect(usedUp.status).toBe(404);
      expect(usedUp.body).toMatchObject({ success: false, code: 'share.used-up' });

      const off = await shareWithFiles(s, token, [{ name: 'b.txt', content: 'b' }]);
      const offPid = await publish(s, token, off.id);
      await s.request('DELETE', `/api/v2/sec/share/${off.id}/publish`, undefined, { token });
      expect((await open(offPid)).body).toMatchObject({ code: 'share.unpublished' });

      // published again under a new id: the old link is unknown
      const newPid = await publish(s, token, off.id, false);
      expect(newPid).not.toBe(offPid);
      expect((await open(offPid)).body).toMatchObject({ code: 'share.unknown' });

      const short = await shareWithFiles(s, token, [{ name: 'c.txt', content: 'c' }], { validity: 60_000 });
      const shortPid = await publish(s, token, short.id);
      clock.advance(60_000);
      const expired = await open(shortPid);
      expect(expired.status).toBe(404);
      expect(expired.body).toMatchObject({ success: false, code: 'share.expired' });
      // an expired share whose views are also used up is expired: the date ends it for everyone
      clock.advance(-60_000);
      const both = await shareWithFiles(s, token, [{ name: 'd.txt', content: 'd' }], { validity: 60_000, maxViews: 1 });
      const bothPid = await publish(s, token, both.id);
      expect((await open(bothPid)).status).toBe(200);
      clock.advance(60_000);
      expect((await open(bothPid)).body).toMatchObject({ code: 'share.expired' });
    });

    it('is the same for a request with a wrong password: the reason comes before the password', async () => {
      const { id } = await shareWithFiles(s, token, [{ name: 'a.txt', content: 'a' }], { password: 'pw', maxViews: 1 });
      const pid = await publish(s, token, id);
      expect((await open(pid, { 'Service-Password': 'pw' })).status).toBe(200);
      expect((await open(pid, { 'Service-Password': 'wrong' })).body).toMatchObject({ code: 'share.used-up' });
    });

    it('stays on the detail route: file and ZIP requests answer a plain 404', async () => {
      const { id, files } = await shareWithFiles(s, token, [{ name: 'a.txt', content: 'a' }], { maxViews: 1 });
      const pid = await publish(s, token, id);
      expect((await open(pid)).status).toBe(200);
      for (const path of [`/api/v2/open/share/${pid}/file/${files['a.txt']!.id}`, `/api/v2/open/share/${pid}/zip`]) {
        const res = await s.request('GET', path);
        expect(res.status).toBe(404);
        expect(res.text).not.toContain('share.used-up');
      }
    });
  });

  describe('Open Graph tags of /app/open/<pid>', () => {
    it('name the share, its file count, size and end, and count no view', async () => {
      const { id } = await shareWithFiles(
        s,
        token,
        [
          { name: 'one.bin', content: new Uint8Array(1024) },
          { name: 'two.bin', content: new Uint8Array(512) },
        ],
        { name: 'Holiday photos', validity: DAY, maxViews: 1 },
      );
      const pid = await publish(s, token, id);
      for (let i = 0; i < 3; i++) {
        const tags = ogTags(await page(pid));
        expect(tags).toEqual({
          'og:type': 'website',
          'og:site_name': 'Pier Test',
          'og:title': 'Holiday photos',
          'og:description': `2 files · 1.5 KB · available until ${new Intl.DateTimeFormat('en-GB', {
            day: 'numeric',
            month: 'short',
            year: 'numeric',
            hour: '2-digit',
            minute: '2-digit',
            timeZoneName: 'short',
            timeZone: 'UTC',
          }).format(clock.now() + DAY)}`,
          'og:url': `${s.url}/app/open/${pid}`,
        });
        expect(tags['og:description']).toMatch(/available until \d+ \w+ 2030, \d\d:\d\d UTC$/);
      }
      // the bot's three fetches counted nothing: the one view is still there for the recipient
      expect(await views(id)).toBe(0);
      expect((await open(pid)).status).toBe(200);
      expect(await views(id)).toBe(1);
    });

    it('call an unnamed share "<n> files" and may show its first file name', async () => {
      const { id } = await shareWithFiles(s, token, [
        { name: 'report.pdf', content: 'x' },
        { name: 'notes.txt', content: 'y' },
        { name: 'data.csv', content: 'z' },
      ]);
      const tags = ogTags(await page(await publish(s, token, id)));
      expect(tags['og:title']).toBe('3 files');
      expect(tags['og:description']).toMatch(/^data\.csv · 3 files · 3 B · available until /);
    });

    // Regression: a share with a password showed its name, size and expiry to anyone holding the link.
    it('show nothing of a share with a password: no name, file name, size or date', async () => {
      const { id } = await shareWithFiles(s, token, [{ name: 'secret-plan.pdf', content: 'x' }], { password: 'pw', name: 'Merger papers' });
      const pid = await publish(s, token, id);
      const html = await page(pid);
      const tags = ogTags(html);
      expect(tags['og:title']).toBe('Pier Test');
      expect(tags['og:description']).toBe('Files shared with you · password required');
      expect(html).not.toMatch(/secret-plan|Merger|1 B|1 file|available until|2030/);
      expect(await views(id)).toBe(0);
    });

    it('are generic for expired, used-up, unpublished and unknown links', async () => {
      const generic = (pid: string) => ({
        'og:type': 'website',
        'og:site_name': 'Pier Test',
        'og:title': 'Pier Test',
        'og:description': 'Files shared with you.',
        'og:url': `${s.url}/app/open/${pid}`,
      });
      const expired = await shareWithFiles(s, token, [{ name: 'gone.txt', content: 'a' }], { name: 'Expired share', validity: 60_000 });
      const expiredPid = await publish(s, token, expired.id);
      const used = await shareWithFiles(s, token, [{ name: 'used.txt', content: 'a' }], { name: 'Used share', maxViews: 1 });
      const usedPid = await publish(s, token, used.id);
      expect((await open(usedPid)).status).toBe(200);
      const off = await shareWithFiles(s, token, [{ name: 'off.txt', content: 'a' }], { name: 'Unpublished share' });
      const offPid = await publish(s, token, off.id);
      await s.request('DELETE', `/api/v2/sec/share/${off.id}/publish`, undefined, { token });
      clock.advance(60_000);
      for (const pid of [expiredPid, usedPid, offPid, 'no-such-id']) {
        const html = await page(pid);
        expect(ogTags(html)).toEqual(generic(pid));
        for (const word of ['Expired share', 'Used share', 'Unpublished share', 'gone.txt', 'used.txt', 'off.txt']) expect(html).not.toContain(word);
      }
      expect(await views(expired.id)).toBe(0);
    });

    it('escape every value and bound its length, whatever the name', async () => {
      const name = `"><script>alert(1)</script>$' & ${'long '.repeat(40)}`;
      const { id } = await shareWithFiles(s, token, [{ name: 'a.txt', content: 'a' }], { name });
      const html = await page(await publish(s, token, id));
      expect(html).not.toContain('<script>alert(1)');
      expect(html).toContain('content="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;$&#39; &amp; long long');
      const title = ogTags(html)['og:title']!;
      expect([...title].length).toBeLessThanOrEqual(100);
      expect(title.endsWith('…')).toBe(true);
      // the page is still the app: one head, the tags inside it, the policy unchanged
      expect(html.match(/<\/head>/g)).toHaveLength(1);
      expect(html.indexOf('og:title')).toBeLessThan(html.indexOf('</head>'));
    });

    it('reach link-preview fetchers without the app, so even one that runs scripts cannot spend a view', async () => {
      const { id } = await shareWithFiles(s, token, [{ name: 'a.txt', content: 'a' }], { name: 'For the chat', maxViews: 1 });
      const pid = await publish(s, token, id);
      // iMessage's fetcher, Slack's, and a browser
      for (const ua of ['facebookexternalhit/1.1 Facebot Twitterbot/1.0', 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)']) {
        const html = await page(pid, { 'User-Agent': ua });
        expect(html).not.toContain('<script');
        expect(html).toContain('<title>For the chat</title>');
        expect(ogTags(html)['og:title']).toBe('For the chat');
      }
      const browser = await page(pid, { 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36' });
      expect(browser).toMatch(/<script type="module"[^>]+src="\/app\/assets\//);
      expect(ogTags(browser)['og:title']).toBe('For the chat');
      expect(await views(id)).toBe(0);
    });

    it('keep the page policy of every other page', async () => {
      const { id } = await shareWithFiles(s, token, [{ name: 'a.txt', content: 'a' }], { name: 'Policy' });
      const pid = await publish(s, token, id);
      const share = await fetchRaw(s, `/app/open/${pid}`);
      const login = await fetchRaw(s, '/app/login');
      expect(share.headers.get('content-security-policy')).toBe(login.headers.get('content-security-policy'));
      expect(share.headers.get('x-frame-options')).toBe('DENY');
    });
  });
});
