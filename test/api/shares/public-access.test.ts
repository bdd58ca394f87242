import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../server/common/clock.js';
import { fetchRaw, publish, shareDetail, shareWithFiles, type ShareDetailBody } from '../../support/share-fixtures.js';
import { ADMIN, startServer, type TestServer } from '../../support/server.js';

const DAY = 86_400_000;

/** `name=value` of the share cookie set by a response, and its attributes. */
const shareCookie = (res: { headers: Headers }): { pair: string; attrs: string } => {
  const c = res.headers.getSetCookie().find((h) => h.startsWith('service_share='));
  if (!c) throw new Error('no share cookie');
  const [pair, ...attrs] = c.split(';');
  return { pair: pair!.trim(), attrs: attrs.join(';') };
};

describe('public access by publish id', () => {
  let s: TestServer;
  let token: string;
  const clock = manualClock(Date.UTC(2030, 0, 1));
  beforeAll(async () => {
    s = await startServer({ clock, config: { backend: { auth: { 'session-valid': '3650 days', 'session-max': '3650 days' } } } });
    token = await s.login(ADMIN.login, ADMIN.password);
  });
  afterAll(() => s.stop());

  const open = (pid: string, headers: Record<string, string> = {}) =>
    s.request<ShareDetailBody>('GET', `/api/v2/open/share/${pid}`, undefined, { headers });
  const file = (pid: string, fid: string, headers: Record<string, string> = {}) => fetchRaw(s, `/api/v2/open/share/${pid}/file/${fid}`, { headers });
  const zip = (pid: string, headers: Record<string, string> = {}) => fetchRaw(s, `/api/v2/open/share/${pid}/zip`, { headers });

  it('answers 404 for unknown, unpublished, expired and used-up shares', async () => {
    const { id } = await shareWithFiles(s, token, [{ name: 'a.txt', content: 'a' }], { validity: DAY, maxViews: 1 });
    expect((await open('unknown-publish-id')).status).toBe(404);
    const pid = await publish(s, token, id);
    expect((await open(pid)).status).toBe(200);
    // one view allowed: the next is refused
    expect((await open(pid)).status).toBe(404);
    await s.request('POST', `/api/v2/sec/share/${id}/maxviews`, { value: 2 }, { token });
    expect((await open(pid)).status).toBe(200);
    await s.request('DELETE', `/api/v2/sec/share/${id}/publish`, undefined, { token });
    await s.request('POST', `/api/v2/sec/share/${id}/maxviews`, { value: 10 }, { token });
    expect((await open(pid)).status).toBe(404);
    await publish(s, token, id);
    expect((await open(pid)).status).toBe(200);
    clock.advance(DAY);
    expect((await open(pid)).status).toBe(404);
  });

  it('shows no private data: the publish id, no alias, no owner, no share id', async () => {
    const { id, files } = await shareWithFiles(s, token, [{ name: 'pic.png', content: 'png', type: 'image/png' }], {
      name: 'Public',
      description: 'key {{key}} [f]({{file.0.url}}) ![i]({{filename.picpng.url}})',
    });
    const pid = await publish(s, token, id);
    const res = await open(pid);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: pid, name: 'Public', aliasId: null, aliasName: null, password: false });
    expect(res.body.publishInfo).toMatchObject({ id: pid, views: 1, enabled: true, expired: false, lastAccess: clock.now() });
    expect(res.text).not.toContain(id);
    // markdown with the references filled in, each value with a backslash before its punctuation
    const md = (v: string) => v.replace(/[!-/:-@[-`{-~]/g, (c) => `\\${c}`);
    const url = md(`${s.url}/api/v2/open/share/${pid}/file/${files['pic.png']!.id}`);
    expect(res.body.description).toBe(`key ${md(pid)} [f](${url}) ![i](${url})`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    // the owner's view has the owner's URLs
    expect((await shareDetail(s, token, id)).description).toContain(md(`${s.url}/api/v2/sec/share/${id}/file/`));
  });

  it('asks for the password: missing 401 with the challenge, wrong 403, right 200 (percent-encoded)', async () => {
    const { id, files } = await shareWithFiles(s, token, [{ name: 'a.txt', content: 'abc' }], { password: 'pässwort 1' });
    const pid = await publish(s, token, id);
    const missing = await open(pid);
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Service realm="share"');
    expect((await open(pid, { 'Service-Password': 'wrong' })).status).toBe(403);
    const ok = await open(pid, { 'Service-Password': encodeURIComponent('pässwort 1') });
    expect(ok.status).toBe(200);
    expect(ok.body.password).toBe(true);
    // every route checks it
    const fid = files['a.txt']!.id;
    expect((await file(pid, fid)).status).toBe(401);
    expect((await file(pid, fid)).headers.get('www-authenticate')).toBe('Service realm="share"');
    expect((await file(pid, fid, { 'Service-Password': 'wrong' })).status).toBe(403);
    expect((await file(pid, fid, { 'Service-Password': encodeURIComponent('pässwort 1') })).status).toBe(200);
    expect((await zip(pid)).status).toBe(401);
    expect((await zip(pid, { 'Service-Password': 'x' })).status).toBe(403);
    expect((await zip(pid, { 'Service-Password': encodeURIComponent('pässwort 1') })).status).toBe(200);
    expect((await fetchRaw(s, `/api/v2/open/share/${pid}/file/${fid}`, { method: 'HEAD' })).status).toBe(401);
  });

  it('counts a view for each request without the cookie; the cookie lets files, ZIP and the detail through without counting', async () => {
    const { id, files } = await shareWithFiles(s, token, [{ name: 'a.txt', content: 'abc' }], { password: 'pw', maxViews: 4, validity: DAY });
    const pid = await publish(s, token, id);
    const fid = files['a.txt']!.id;
    const views = async () => (await shareDetail(s, token, id)).publishInfo!.views;

    // without the cookie: password and a view left are needed, and each request counts one
    expect((await file(pid, fid, { 'Service-Password': 'pw' })).status).toBe(200);
    expect((await zip(pid, { 'Service-Password': 'pw' })).status).toBe(200);
    expect(await views()).toBe(2);

    const first = await open(pid, { 'Service-Password': 'pw' });
    expect(first.status).toBe(200);
    const { pair, attrs } = shareCookie(first);
    expect(pair).not.toContain('pw');
    expect(attrs).toMatch(/HttpOnly/i);
    expect(attrs).toMatch(/SameSite=Lax/i);
    expect(attrs).toContain(`Path=/api/v2/open/share/${pid}`);
    expect(Number(/Max-Age=(\d+)/i.exec(attrs)![1])).toBe(DAY / 1000);
    expect(await views()).toBe(3);

    for (let i = 0; i < 3; i++) {
      const r = await file(pid, fid, { Cookie: pair });
      expect(r.status).toBe(200);
      expect(await r.text()).toBe('abc');
      expect((await zip(pid, { Cookie: pair })).status).toBe(200);
    }
    // the cookie also stands in for the password on the detail, and counts nothing there either
    expect((await open(pid, { Cookie: pair })).status).toBe(200);
    expect(await views()).toBe(3);
    // the last view goes to one more recipient; then the detail and cookie-less downloads are refused, the cookie still works
    expect((await file(pid, fid, { 'Service-Password': 'pw' })).status).toBe(200);
    expect(await views()).toBe(4);
    expect((await open(pid, { 'Service-Password': 'pw' })).status).toBe(404);
    expect((await file(pid, fid, { 'Service-Password': 'pw' })).status).toBe(404);
    expect((await zip(pid, { 'Service-Password': 'pw' })).status).toBe(404);
    expect((await open(pid, { Cookie: pair })).status).toBe(200);
    expect((await file(pid, fid, { Cookie: pair })).status).toBe(200);
    expect((await zip(pid, { Cookie: pair })).status).toBe(200);

    // not for a file of another share
    const other = await shareWithFiles(s, token, [{ name: 'b.txt', content: 'b' }]);
    expect((await file(pid, other.files['b.txt']!.id, { Cookie: pair })).status).toBe(404);

    // a new password makes the cookie worthless
    await s.request('POST', `/api/v2/sec/share/${id}/password`, { value: 'pw2' }, { token });
    await s.request('POST', `/api/v2/sec/share/${id}/maxviews`, { value: 10 }, { token });
    expect((await file(pid, fid, { Cookie: pair })).status).toBe(401);
    // unpublished or expired: the cookie does not help either
    await s.request('POST', `/api/v2/sec/share/${id}/password`, { value: 'pw' }, { token });
    const again = shareCookie(await open(pid, { 'Service-Password': 'pw' })).pair;
    expect((await file(pid, fid, { Cookie: again })).status).toBe(200);
    await s.request('DELETE', `/api/v2/sec/share/${id}/publish`, undefined, { token });
    expect((await file(pid, fid, { Cookie: again })).status).toBe(404);
    expect((await zip(pid, { Cookie: again })).status).toBe(404);
  });

  it('does not accept the cookie of one share for another', async () => {
    const a = await shareWithFiles(s, token, [{ name: 'a.txt', content: 'a' }], { password: 'same' });
    const b = await shareWithFiles(s, token, [{ name: 'b.txt', content: 'b' }], { password: 'same' });
    const pa = await publish(s, token, a.id);
    const pb = await publish(s, token, b.id);
    const cookieA = shareCookie(await open(pa, { 'Service-Password': 'same' })).pair;
    expect((await file(pa, a.files['a.txt']!.id, { Cookie: cookieA })).status).toBe(200);
    expect((await file(pb, b.files['b.txt']!.id, { Cookie: cookieA })).status).toBe(401);
    expect((await zip(pb, { Cookie: cookieA })).status).toBe(401);
    expect((await file(pa, a.files['a.txt']!.id, { Cookie: 'service_share=1.forged' })).status).toBe(401);
  });

  it('never lets racing detail requests exceed maxViews', async () => {
    const { id } = await shareWithFiles(s, token, [], { maxViews: 5 });
    const pid = await publish(s, token, id);
    const results = await Promise.all(Array.from({ length: 25 }, () => open(pid)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    expect(results.filter((r) => r.status === 404)).toHaveLength(20);
    expect((await shareDetail(s, token, id)).publishInfo!.views).toBe(5);
  });
});

describe('share password failures', () => {
  it('are rate-limited per client address with 429 and Retry-After', async () => {
    const clock = manualClock(Date.UTC(2030, 0, 1));
    const s = await startServer({ clock, config: { 'rate-limit': { 'share-password-failures': 3, window: '1 minute' } } });
    try {
      const token = await s.login(ADMIN.login, ADMIN.password);
      const { id, files } = await shareWithFiles(s, token, [{ name: 'a.txt', content: 'a' }], { password: 'right' });
      const pid = await publish(s, token, id);
      const open = (pw: string) => s.request('GET', `/api/v2/open/share/${pid}`, undefined, { headers: { 'Service-Password': pw } });
      for (let i = 0; i < 3; i++) expect((await open('wrong')).status).toBe(403);
      const limited = await open('right');
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      const fileRes = await fetchRaw(s, `/api/v2/open/share/${pid}/file/${files['a.txt']!.id}`, { headers: { 'Service-Password': 'wrong' } });
      expect(fileRes.status).toBe(429);
      clock.advance(61_000);
      expect((await open('right')).status).toBe(200);
    } finally {
      await s.stop();
    }
  });
});
